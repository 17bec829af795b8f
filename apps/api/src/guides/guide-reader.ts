import { GuideQueries, GuideRepository, ViewGuide, type Editor, type Guide, type GuideId, type GuideSummaryView } from '@rc/guides-domain';
import { GetUsers, type Principal, type UserId } from '@rc/identity-domain';
import type { AppConfig } from '../config/config.js';
import { presentGuide, presentSummary, presentStep, type PresentationContext, type WikiRenderer } from './guide.presenter.js';

export function editorOf(principal: Principal | null): Editor | null {
  return principal ? { userId: principal.userId, isAdmin: principal.role === 'Admin' } : null;
}

/**
 * Builds guide bodies for a viewer in a constant number of queries, whatever the number of steps
 * or prerequisites: the guide and its steps, the prerequisites and theirs, the authors, the marks.
 */
export class GuideReader {
  constructor(
    private readonly view: ViewGuide,
    private readonly guides: GuideRepository,
    private readonly queries: GuideQueries,
    private readonly users: GetUsers,
    private readonly renderer: WikiRenderer,
    private readonly config: AppConfig,
  ) {}

  /** The guide as the viewer may see it now (the domain's visibility rules apply). */
  current(guideId: GuideId, viewer: Principal | null): Promise<Guide> {
    return this.view.execute({ viewer: editorOf(viewer), guideId });
  }

  async guide(guideId: GuideId, viewer: Principal | null, options: { revisionid?: number; inlinePrerequisites: boolean }) {
    const guide = await this.view.execute({ viewer: editorOf(viewer), guideId, revisionid: options.revisionid });
    return this.present(guide, viewer, options.inlinePrerequisites);
  }

  /** The body of a write response: the guide as it now is, without inlined prerequisite steps. */
  async present(guide: Guide, viewer: Principal | null, inlinePrerequisites = false) {
    const editor = editorOf(viewer);
    const prerequisites = await this.queries.byIdsIncludingPrivate(guide.state.prerequisites);
    const visible = prerequisites.filter((p) => p.isPublic || (editor && (editor.isAdmin || editor.userId === p.authorId)));
    const inlined = inlinePrerequisites && visible.length ? await this.guides.findMany(visible.map((p) => p.guideid)) : [];
    const ctx = await this.context([guide.state.authorId, ...visible.map((p) => p.authorId)]);
    const marks = viewer ? await this.queries.marksOf(viewer.userId, [guide.id]) : null;
    return presentGuide(guide, ctx, {
      prerequisites: visible,
      inlined,
      viewer: { canEdit: guide.canEdit(editor), favorited: !!marks?.favorited.has(guide.id), completed: !!marks?.completed.has(guide.id) },
    });
  }

  async step(guide: Guide, stepId: number) {
    const ctx = await this.context([]);
    return presentStep(guide.step(stepId), guide.id, ctx);
  }

  async summaries(views: readonly GuideSummaryView[]) {
    const ctx = await this.context(views.map((v) => v.authorId));
    return views.map((v) => presentSummary(v, ctx));
  }

  async marked(rows: readonly { date: Date; guide: GuideSummaryView }[]) {
    const ctx = await this.context(rows.map((r) => r.guide.authorId));
    return rows.map((r) => ({ date: Math.floor(r.date.getTime() / 1000), guide: presentSummary(r.guide, ctx) }));
  }

  private async context(authorIds: number[]): Promise<PresentationContext> {
    const authors = authorIds.length ? await this.users.execute(authorIds as UserId[]) : new Map();
    return { baseUrl: this.config.publicBaseUrl, renderer: this.renderer, authors };
  }
}
