import type { EntityManager } from '@mikro-orm/postgresql';
import { CommunityGuides, type CommunityViewer } from '@rc/community-contracts';
import type { GuideQueries, GuideRepository } from '@rc/guides-domain';
import { GUIDE_DISCUSSION_CHANGED_SQL, STEP_GUIDE_SQL } from '@rc/guides-infra-mikro-orm';
import type { GuideReader } from './guide-reader.js';

/**
 * What the community context asks of guides (comments on guides and steps, guides that stories
 * mention), answered with the guides' own rules: `Guide.canView` for who sees a guide's comments.
 */
export class GuidesForCommunity extends CommunityGuides {
  constructor(
    private readonly em: EntityManager,
    private readonly guides: GuideRepository,
    private readonly queries: GuideQueries,
    private readonly reader: GuideReader,
  ) {
    super();
  }

  async guideOf(target: 'guide' | 'step', id: number): Promise<number | null> {
    const guideId = target === 'guide' ? id : (await this.em.execute<{ guide_id: number }[]>(STEP_GUIDE_SQL, [id]))[0]?.guide_id;
    if (guideId === undefined) return null;
    return (await this.guides.findMany([guideId])).some((g) => !g.isDeleted) ? guideId : null;
  }

  async visibility(guideIds: readonly number[], viewer: CommunityViewer | null) {
    const live = (await this.guides.findMany(guideIds)).filter((g) => !g.isDeleted);
    return { existing: new Set<number>(live.map((g) => g.id)), visible: new Set<number>(live.filter((g) => g.canView(viewer)).map((g) => g.id)) };
  }

  async discussionChanged(guideId: number): Promise<void> {
    await this.em.execute(GUIDE_DISCUSSION_CHANGED_SQL, [guideId]);
  }

  async publicSummaries(ids: readonly number[]): Promise<Map<number, object>> {
    if (!ids.length) return new Map();
    const views = (await this.queries.byIds(ids)).filter((g) => g.isPublic);
    return new Map((await this.reader.summaries(views)).map((s) => [s.guideid, s]));
  }
}
