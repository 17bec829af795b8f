import { commentAuthors, type GuideDiscussions, type GuideThreads } from '@rc/community-contracts';
import { GuideDocuments, GuideImages, GuideQueries, GuideRepository, ReadGuideTranslation, ViewGuide, type Editor, type Guide, type GuideId, type GuideSummaryView } from '@rc/guides-domain';
import type { Caller, UserSummaries, UserSummary } from '@rc/identity-contracts';
import type { DocumentLink, ImageObject } from '@rc/media-contracts';
import { templateOf, type BodyTemplate } from './guide-body-template.js';
import type { UserPart, UserPartsCache } from './user-parts.js';
import { authorName, imageIdsOf, presentAuthor, presentGuide, presentSummary, presentStep, type PresentationContext, type WikiRenderer } from './guide.presenter.js';

export function editorOf(principal: Caller | null): Editor | null {
  return principal ? { userId: principal.userId, isAdmin: principal.role === 'Admin' } : null;
}


/** No comments (a deployment without the community context). */
const NO_THREADS: GuideThreads = { guides: new Map(), steps: new Map() };

/**
 * Builds guide bodies for a viewer in a constant number of queries, whatever the number of steps
 * or prerequisites: the guide and its steps, the prerequisites and theirs, the comments on the
 * guide and its steps (the community context's, one lookup), the authors (with their standing,
 * one batch for all of them, comment authors included), the marks.
 */
export class GuideReader {
  constructor(
    private readonly view: ViewGuide,
    private readonly guides: GuideRepository,
    private readonly queries: GuideQueries,
    /** The authors, with their standing where bodies embed them: the identity context's published summaries. */
    private readonly users: UserSummaries,
    private readonly renderer: WikiRenderer,
    private readonly config: { readonly publicBaseUrl: string },
    /** The images guides show, as the media context has them: one lookup per body or list. */
    private readonly images: GuideImages,
    /** The comments bodies show (the community context publishes them); none when absent. */
    private readonly discussions: GuideDiscussions | null = null,
    /** The documents guides list, as the media context has them; none shown when absent. */
    private readonly documents: GuideDocuments | null = null,
    /** The guides' translations (`langid` reads); none: every guide reads in its own language. */
    private readonly translations: ReadGuideTranslation | null = null,
  ) {}

  /**
   * The author objects kept per process for anonymous bodies (UserPartsCache: coherent with the
   * database's announcements), used by the bodies built for a viewer too (a write's answer, a
   * signed-in read), which then look no author up while they are kept. Without it, each body
   * looks its authors up.
   */
  private keptAuthors: Pick<UserPartsCache, 'parts'> | null = null;

  keepAuthorsIn(parts: Pick<UserPartsCache, 'parts'>): void {
    this.keptAuthors = parts;
  }

  /** The guide as the viewer may see it now (the domain's visibility rules apply). */
  current(guideId: GuideId, viewer: Caller | null): Promise<Guide> {
    return this.view.execute({ viewer: editorOf(viewer), guideId });
  }

  /** The guide as the viewer may see it now, in `langid` (its translation, or its own language when it has none). */
  async currentIn(guideId: GuideId, viewer: Caller | null, langid: string): Promise<Guide> {
    const guide = await this.current(guideId, viewer);
    return this.translations ? this.translations.execute(guide, langid) : guide;
  }

  /**
   * `langid`: the guide as that language shows it (its translation, or its own language when it
   * has none: the answer's `langid` is the language served). With `revisionid` as well, the
   * translation's current revision id reads the translation; any other names a stored revision of
   * the guide, served as it was stored.
   */
  async guide(guideId: GuideId, viewer: Caller | null, options: { revisionid?: number; inlinePrerequisites: boolean; stepComments?: boolean; langid?: string }) {
    const { langid } = options;
    if (langid === undefined || !this.translations) {
      const guide = await this.view.execute({ viewer: editorOf(viewer), guideId, revisionid: options.revisionid });
      return this.present(guide, viewer, options.inlinePrerequisites, options.stepComments);
    }
    const current = await this.view.execute({ viewer: editorOf(viewer), guideId });
    const translated = await this.translations.execute(current, langid);
    if (options.revisionid !== undefined && options.revisionid !== translated.state.revisionid) {
      const stored = await this.view.execute({ viewer: editorOf(viewer), guideId, revisionid: options.revisionid });
      return this.present(stored, viewer, options.inlinePrerequisites, options.stepComments);
    }
    return this.present(translated, viewer, options.inlinePrerequisites, options.stepComments, langid);
  }

  /**
   * The body of a write response: the guide as it now is, without inlined prerequisite steps.
   * `langid`: the inlined prerequisites' steps show in that language where they are translated.
   */
  async present(guide: Guide, viewer: Caller | null, inlinePrerequisites = false, stepComments = false, langid?: string) {
    const editor = editorOf(viewer);
    const prerequisites = await this.prerequisitesOf(guide, editor, inlinePrerequisites);
    const visible = prerequisites.visible;
    const inlined = langid !== undefined && this.translations ? await this.translations.many(prerequisites.inlined, langid) : prerequisites.inlined;
    const threads = await this.threadsOf([guide], inlined);
    // The authors, their standing and the viewer's marks are independent lookups: run together.
    const [ctx, marks] = await Promise.all([
      this.context([guide.state.authorId, ...guide.statistics.contributors.map((c) => c.userId), ...guide.statistics.translators.map((c) => c.userId), ...visible.map((p) => p.authorId), ...threadAuthors(threads)], {
        standings: 'kept',
        images: this.shownBy([guide, ...inlined], visible),
        documents: guide.state.documentIds,
      }),
      viewer ? this.queries.marksOf(viewer.userId, [guide.id]) : null,
    ]);
    return presentGuide(guide, ctx, {
      prerequisites: visible,
      inlined,
      viewer: { canEdit: await this.view.canEdit(guide, editor), favorited: !!marks?.favorited.has(guide.id), completed: !!marks?.completed.has(guide.id) },
      comments: { threads, stepComments },
    });
  }

  /**
   * The public guide's body as an anonymous reader gets it, with placeholders for the user objects
   * (see BodyTemplate): no user is looked up.
   */
  async anonymousTemplate(guideId: GuideId, inlinePrerequisites: boolean): Promise<BodyTemplate> {
    const guide = await this.view.execute({ viewer: null, guideId });
    const prerequisites = await this.prerequisitesOf(guide, null, inlinePrerequisites);
    const [images, threads, documents] = await Promise.all([
      this.imagesOf(this.shownBy([guide, ...prerequisites.inlined], prerequisites.visible)),
      this.threadsOf([guide], prerequisites.inlined),
      this.documentsOf(guide.state.documentIds),
    ]);
    return this.templateOf(guide, prerequisites, images, threads, documents);
  }

  /**
   * `anonymousTemplate` of many guides at once (a constant number of queries), for those of `ids`
   * that exist and are public and not deleted; in no particular order.
   */
  async anonymousTemplates(ids: readonly GuideId[], inlinePrerequisites: boolean): Promise<Map<GuideId, BodyTemplate>> {
    const guides = (await this.guides.findMany(ids)).filter((g) => g.state.isPublic && !g.state.deletedAt);
    const prerequisites = new Map((await this.queries.byIdsIncludingPrivate([...new Set(guides.flatMap((g) => g.state.prerequisites))])).map((p) => [p.guideid, p]));
    const visibleOf = (g: Guide) => g.state.prerequisites.flatMap((id) => prerequisites.get(id) ?? []).filter((p) => p.isPublic);
    const inlinedIds = inlinePrerequisites ? [...new Set(guides.flatMap((g) => visibleOf(g).map((p) => p.guideid)))] : [];
    const inlined = new Map((inlinedIds.length ? await this.guides.findMany(inlinedIds) : []).map((g) => [g.id as number, g]));
    const [images, threads, documents] = await Promise.all([
      this.imagesOf(this.shownBy([...guides, ...inlined.values()], guides.flatMap(visibleOf))),
      this.threadsOf(guides, [...inlined.values()]),
      this.documentsOf(guides.flatMap((g) => g.state.documentIds)),
    ]);
    const out = new Map<GuideId, BodyTemplate>();
    for (const guide of guides) {
      const visible = visibleOf(guide);
      out.set(guide.id, this.templateOf(guide, { visible, inlined: inlinePrerequisites ? visible.flatMap((p) => inlined.get(p.guideid) ?? []) : [] }, images, threads, documents));
    }
    return out;
  }

  /** What the bodies show of these users (the parts a template leaves out), in one batch. */
  async userParts(userIds: readonly number[]): Promise<Map<number, UserPart>> {
    const ctx = await this.context([...userIds], { standings: true });
    return new Map(userIds.map((id) => [id, { summary: presentAuthor(id, ctx), username: authorName(id, ctx) }]));
  }

  /** These users as bodies embed them (UserSummary, with their standing), in one lookup: a placeholder for a gone account. */
  async authors(userIds: readonly number[]): Promise<(userId: number) => UserSummary> {
    const ctx = await this.context([...userIds], { standings: true });
    return (id) => presentAuthor(id, ctx);
  }

  async step(guide: Guide, stepId: number) {
    const threads = this.discussions ? await this.discussions.threadsOf({ guideIds: [], stepIds: [stepId] }) : NO_THREADS;
    const ctx = await this.context(threadAuthors(threads), { standings: 'kept', images: imageIdsOf(guide) });
    return presentStep(guide.step(stepId), guide.id, ctx, { threads });
  }

  async summaries(views: readonly GuideSummaryView[]) {
    const ctx = await this.context(views.map((v) => v.authorId), { images: this.shownBy([], views) });
    return views.map((v) => presentSummary(v, ctx));
  }

  /**
   * GuideSummary bodies with the authors and images the caller looked up (maps holding at least
   * each guide's author and image): no lookup here, so a page showing guides among other things looks
   * everything up at once.
   */
  summariesWith(views: readonly GuideSummaryView[], authors: ReadonlyMap<number, UserSummary>, images: ReadonlyMap<number, ImageObject>) {
    const ctx: PresentationContext = { baseUrl: this.config.publicBaseUrl, renderer: this.renderer, authors, images };
    return views.map((v) => presentSummary(v, ctx));
  }

  async marked(rows: readonly { date: Date; guide: GuideSummaryView }[]) {
    const ctx = await this.context(rows.map((r) => r.guide.authorId), { images: this.shownBy([], rows.map((r) => r.guide)) });
    return rows.map((r) => ({ date: Math.floor(r.date.getTime() / 1000), guide: presentSummary(r.guide, ctx) }));
  }

  /** The prerequisites the viewer may see (in the guide's order) and, when inlined, their guides. */
  private async prerequisitesOf(guide: Guide, editor: Editor | null, inlinePrerequisites: boolean) {
    const prerequisites = await this.queries.byIdsIncludingPrivate(guide.state.prerequisites);
    const visible = prerequisites.filter((p) => p.isPublic || (editor && (editor.isAdmin || editor.userId === p.authorId)));
    const inlined = inlinePrerequisites && visible.length ? await this.guides.findMany(visible.map((p) => p.guideid)) : [];
    return { visible, inlined };
  }

  /** The comments on these guides and all their steps (the inlined guides' steps too), in one lookup. */
  private async threadsOf(guides: readonly Guide[], inlined: readonly Guide[]): Promise<GuideThreads> {
    if (!this.discussions || !guides.length) return NO_THREADS;
    // Guides read with their discussion stamp that never moved have no comment, nor have their steps.
    if ([...guides, ...inlined].every((g) => g.statistics.discussed === false)) return NO_THREADS;
    const stepIds = [...guides, ...inlined].flatMap((g) => g.steps.map((step) => step.id));
    return this.discussions.threadsOf({ guideIds: guides.map((g) => g.id), stepIds });
  }

  /** The anonymous body with placeholders for users: nothing in it depends on the (empty) authors. */
  private templateOf(
    guide: Guide,
    { visible, inlined }: { visible: GuideSummaryView[]; inlined: Guide[] },
    images: ReadonlyMap<number, ImageObject>,
    threads: GuideThreads,
    documents: ReadonlyMap<number, DocumentLink>,
  ): BodyTemplate {
    const ctx: PresentationContext = { baseUrl: this.config.publicBaseUrl, renderer: this.renderer, authors: new Map(), images, documents };
    return templateOf(presentGuide(guide, ctx, { prerequisites: visible, inlined, viewer: { canEdit: false, favorited: false, completed: false }, comments: { threads } }));
  }

  /**
   * The authors in one lookup and, for bodies that embed author objects (UserSummary), their
   * standing in one batch alongside it. Summaries show only `userid` and `username`. `'kept'`:
   * author objects from the kept ones (see `keepAuthorsIn`) when there are.
   */
  private async context(authorIds: number[], options: { standings?: boolean | 'kept'; images?: readonly number[]; documents?: readonly number[] } = {}): Promise<PresentationContext> {
    const ids = [...new Set(authorIds)];
    const [authors, images, documents] = await Promise.all([
      ids.length ? this.authorsOf(ids, options.standings ?? false) : new Map<number, UserSummary>(),
      this.imagesOf(options.images ?? []),
      this.documentsOf(options.documents ?? []),
    ]);
    return { baseUrl: this.config.publicBaseUrl, renderer: this.renderer, authors, images, documents };
  }

  private async authorsOf(ids: number[], standings: boolean | 'kept'): Promise<Map<number, UserSummary>> {
    if (standings !== 'kept' || !this.keptAuthors) return this.users.of(ids, { standings: !!standings });
    // A gone account's part is the placeholder presentAuthor gives it.
    const parts = await this.keptAuthors.parts(ids);
    return new Map(ids.map((id) => [id, parts.summary(id)]));
  }

  /** The links of these documents, in one lookup (none for no id: guides without documents cost nothing). */
  private async documentsOf(ids: readonly number[]): Promise<ReadonlyMap<number, DocumentLink>> {
    const unique = [...new Set(ids)];
    return unique.length && this.documents ? this.documents.links(unique) : new Map();
  }

  /** The images these guides (and their steps) and these summaries show. */
  private shownBy(guides: readonly Guide[], summaries: readonly GuideSummaryView[]): number[] {
    return [...guides.flatMap(imageIdsOf), ...summaries.flatMap((v) => (v.imageId === null ? [] : [v.imageId]))];
  }

  /** The Image objects of these ids, in one lookup (none for no id). */
  private async imagesOf(ids: readonly number[]): Promise<ReadonlyMap<number, ImageObject>> {
    const unique = [...new Set(ids)];
    return unique.length ? this.images.objects(unique) : new Map();
  }
}

/** The authors of every comment in these threads. */
function threadAuthors(threads: GuideThreads): number[] {
  return commentAuthors([...threads.guides.values(), ...threads.steps.values()].flat());
}
