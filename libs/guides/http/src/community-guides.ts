import type { EntityManager } from '@mikro-orm/postgresql';
import { CommunityGuides, type CommunityViewer } from '@rc/community-contracts';
import { editorTeamsDecide, mayViewGuide, type Editor, type GuideEditors, type GuideQueries, type TeamDirectory } from '@rc/guides-domain';
import { GUIDE_DISCUSSION_CHANGED_SQL, guidesVisibility, STEP_GUIDE_SQL } from '@rc/guides-infra-mikro-orm';
import type { GuideReader } from './guide-reader.js';

/**
 * What the community context asks of guides (comments on guides and steps, guides that stories
 * mention), answered with the guides' own rule for who sees a live guide (`mayViewGuide`, which
 * `Guide.canView` applies too), read in one light statement (the viewer's teams looked up once
 * more, and only when one of the guides lets a team edit it).
 */
export class GuidesForCommunity extends CommunityGuides {
  constructor(
    private readonly em: EntityManager,
    private readonly queries: GuideQueries,
    private readonly reader: GuideReader,
    private readonly teams: TeamDirectory,
  ) {
    super();
  }

  async guideOf(target: 'guide' | 'step', id: number): Promise<number | null> {
    const guideId = target === 'guide' ? id : (await this.em.execute<{ guide_id: number }[]>(STEP_GUIDE_SQL, [id]))[0]?.guide_id;
    if (guideId === undefined) return null;
    return (await guidesVisibility(this.em, [guideId])).length ? guideId : null;
  }

  async visibility(guideIds: readonly number[], viewer: CommunityViewer | null) {
    const live = (await guidesVisibility(this.em, guideIds)).map((row) => ({
      id: row.id,
      isPublic: row.is_public,
      editors: { authorId: row.author_id, userIds: row.collaborator_ids, teamIds: row.team_ids } satisfies GuideEditors,
    }));
    let editor: Editor | null = viewer;
    if (viewer && live.some((g) => !g.isPublic && editorTeamsDecide(g.editors, viewer))) editor = { ...viewer, teamIds: await this.teams.teamIdsOf(viewer.userId) };
    return { existing: new Set<number>(live.map((g) => g.id)), visible: new Set<number>(live.filter((g) => mayViewGuide(g.isPublic, g.editors, editor)).map((g) => g.id)) };
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
