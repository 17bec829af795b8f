import type { EntityManager } from '@mikro-orm/postgresql';
import { CommunityGuides, type CommunityViewer } from '@rc/community-contracts';
import { Guide, type Editor, type GuideQueries, type GuideRepository, type TeamDirectory } from '@rc/guides-domain';
import { GUIDE_DISCUSSION_CHANGED_SQL, GUIDES_ACCESS_SQL, STEP_GUIDE_SQL } from '@rc/guides-infra-mikro-orm';
import type { GuideReader } from './guide-reader.js';

/**
 * What the community context asks of guides (comments on guides and steps, guides that stories
 * mention), answered with the guides' own rules: `Guide.canView` for who sees a guide's comments
 * (the viewer's teams looked up once, and only when one of the guides lets a team edit it).
 */
export class GuidesForCommunity extends CommunityGuides {
  constructor(
    private readonly em: EntityManager,
    private readonly guides: GuideRepository,
    private readonly queries: GuideQueries,
    private readonly reader: GuideReader,
    private readonly teams: TeamDirectory,
  ) {
    super();
  }

  async guideOf(target: 'guide' | 'step', id: number): Promise<number | null> {
    const guideId = target === 'guide' ? id : (await this.em.execute<{ guide_id: number }[]>(STEP_GUIDE_SQL, [id]))[0]?.guide_id;
    if (guideId === undefined) return null;
    return (await this.guides.findMany([guideId])).some((g) => !g.isDeleted) ? guideId : null;
  }

  async visibility(guideIds: readonly number[], viewer: CommunityViewer | null) {
    let live = (await this.guides.findMany(guideIds)).filter((g) => !g.isDeleted);
    // Private guides of others: who else may edit them decides (one statement for all of them).
    const others = viewer && !viewer.isAdmin ? live.filter((g) => !g.state.isPublic && g.state.authorId !== viewer.userId) : [];
    if (others.length) {
      const rows = await this.em.execute<{ id: number; collaborator_ids: number[]; team_ids: number[] }[]>(GUIDES_ACCESS_SQL, [JSON.stringify(others.map((g) => g.id))]);
      const access = new Map(rows.map((r) => [r.id, { userIds: r.collaborator_ids, teamIds: r.team_ids }]));
      live = live.map((g) => (access.has(g.id) ? Guide.restore(g.state, g.steps.map((step) => step.toState()), access.get(g.id), g.statistics, g.languages) : g));
    }
    let editor: Editor | null = viewer;
    if (viewer && live.some((g) => !g.state.isPublic && g.needsTeamsOf(viewer))) editor = { ...viewer, teamIds: await this.teams.teamIdsOf(viewer.userId) };
    return { existing: new Set<number>(live.map((g) => g.id)), visible: new Set<number>(live.filter((g) => g.canView(editor)).map((g) => g.id)) };
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
