import { commentBody, type GuideThreads, type PublishedComment } from '@rc/community-contracts';
import { contributorShares, GUIDE_FLAGS, timeRequiredText, type Guide, type GuideItem, type GuideSummaryView, type Step, type StepMedia } from '@rc/guides-domain';
import { unknownUserSummary, type UserSummary } from '@rc/identity-contracts';
import { imageOrNull, type DocumentLink, type ImageObject } from '@rc/media-contracts';
import type { WikiRenderer } from '@rc/shared-http';
import { toUnixSeconds } from '@rc/shared-kernel';

export type { WikiRenderer };

export interface PresentationContext {
  readonly baseUrl: string;
  readonly renderer: WikiRenderer;
  /** The authors as the identity context shows them (with their standing, where bodies embed them), by user id. */
  readonly authors: ReadonlyMap<number, UserSummary>;
  /** The Image objects of the images shown (looked up in one batch beforehand), by id: an id missing here is not shown. */
  readonly images: ReadonlyMap<number, ImageObject>;
  /** The links of the documents shown (looked up beforehand), by id: an id missing here is not shown. */
  readonly documents?: ReadonlyMap<number, DocumentLink>;
}

/** The image ids a guide shows: its own and its steps'. */
export function imageIdsOf(guide: Guide): number[] {
  const ids = guide.state.imageId === null ? [] : [guide.state.imageId];
  for (const step of guide.steps) if (step.media.type === 'image') ids.push(...step.media.imageIds);
  return ids;
}

export function guideUrl(id: number, title: string, baseUrl: string): string {
  return `${baseUrl}/Guide/${encodeURIComponent(title).replace(/%20/g, '+')}/${id}`;
}

/** An author object (UserSummary) of a body. */
export function presentAuthor(id: number, ctx: PresentationContext): UserSummary {
  return ctx.authors.get(id) ?? unknownUserSummary(id, ctx.baseUrl);
}

/** An author's name as summaries show it. */
export function authorName(id: number, ctx: PresentationContext): string {
  return ctx.authors.get(id)?.username ?? 'Deleted user';
}

const seconds = (date: Date | null): number => (date ? toUnixSeconds(date) : 0);

/**
 * `contributors` (as wiki pages' `authors`, reference §3.10): each editor of the guide as a
 * UserSummary with `percent` (their share of the revisions, rounded), `profile_url` and
 * `avatar_url`; the creator first.
 */
export function presentContributors(guide: Guide, ctx: PresentationContext) {
  return contributorShares(guide.statistics.contributors).map((c) => contributorBody(presentAuthor(c.userId, ctx), c.percent));
}

/**
 * `translators`: the editors of the translation the body shows (in `langid`), in the shape of
 * `contributors` (their share of the translation's revisions; whoever started it first). Empty when
 * the guide shows in its own language: its editors are its `contributors`.
 */
export function presentTranslators(guide: Guide, ctx: PresentationContext) {
  return contributorShares(guide.statistics.translators).map((c) => contributorBody(presentAuthor(c.userId, ctx), c.percent));
}

/** One entry of `contributors` (or `translators`): the user's summary with their share. */
export function contributorBody(summary: UserSummary, percent: number) {
  return { ...summary, percent, profile_url: summary.url, avatar_url: null };
}

/** GuideSummary (reference §3.4): list items. */
export function presentSummary(g: GuideSummaryView, ctx: PresentationContext) {
  return {
    dataType: 'guide' as const,
    guideid: g.guideid,
    locale: g.locale,
    revisionid: g.revisionid,
    modified_date: seconds(g.modifiedAt),
    prereq_modified_date: seconds(g.prereqModifiedAt),
    url: guideUrl(g.guideid, g.title, ctx.baseUrl),
    type: g.type,
    category: g.category,
    subject: g.subject,
    title: g.title,
    summary: g.summary,
    difficulty: g.difficulty,
    time_required_max: g.timeRequiredMax,
    public: g.isPublic,
    userid: g.authorId,
    username: authorName(g.authorId, ctx),
    flags: [...g.flags],
    image: imageOrNull(ctx.images, g.imageId),
  };
}

/** PrerequisiteGuide: a summary without `summary`. */
export function presentPrerequisite(g: GuideSummaryView, ctx: PresentationContext) {
  const { summary: _summary, ...rest } = presentSummary(g, ctx);
  return rest;
}

function presentMedia(media: StepMedia, images: ReadonlyMap<number, ImageObject>) {
  switch (media.type) {
    case 'image':
      return { type: 'image', data: media.imageIds.flatMap((id) => images.get(id) ?? []) };
    case 'video':
      return { type: 'video', data: { objectid: media.objectId } };
    case 'embed':
      return { type: 'embed', data: { embedid: media.objectId } };
    default:
      return { type: 'image', data: [] };
  }
}

/** Comments (reference §3.12) with their authors as this body shows users. */
export function presentComments(threads: readonly PublishedComment[] | undefined, ctx: PresentationContext) {
  return (threads ?? []).map((c) => commentBody(c, (id) => presentAuthor(id, ctx)));
}

/** How many live comments (replies included) a list of threads holds. */
const liveCount = (threads: readonly PublishedComment[]): number =>
  threads.reduce((n, c) => n + (c.status === 'deleted' ? 0 : 1) + c.replies.filter((r) => r.status !== 'deleted').length, 0);

/** At most this many top-level comments a step shows with `stepComments`. */
export const STEP_COMMENTS_CAP = 20;

/** The comments shown with a body: every thread, or (`stepComments`) steps capped and counted. */
export interface BodyComments {
  readonly threads?: GuideThreads;
  readonly stepComments?: boolean;
}

export function presentStep(step: Step, guideid: number, ctx: PresentationContext, comments: BodyComments = {}) {
  const threads = comments.threads?.steps.get(step.id) ?? [];
  const shown = comments.stepComments ? threads.slice(0, STEP_COMMENTS_CAP) : threads;
  return {
    stepid: step.id,
    guideid,
    orderby: step.orderby,
    revisionid: step.revisionid,
    title: step.title,
    lines: step.lines.map((line) => ({
      text_raw: line.text,
      text_rendered: ctx.renderer.inline(line.text),
      bullet: line.bullet,
      level: line.level,
      lineid: line.lineid || null,
    })),
    media: presentMedia(step.media, ctx.images),
    comments: presentComments(shown, ctx),
    ...(comments.stepComments ? { comment_count: liveCount(threads) } : {}),
  };
}

/**
 * A part or tool (reference §3.7): `url` is the item's page (its own link, else the ITEM page its
 * name resolves to, §4.3), `thumbnail` its picture or null.
 */
function presentItem(item: GuideItem, baseUrl: string) {
  return { ...item, url: item.url || itemUrl(item.text, baseUrl), thumbnail: item.thumbnail || null };
}

export function itemUrl(name: string, baseUrl: string): string {
  return `${baseUrl}/Item/${encodeURIComponent(name.replace(/ /g, '_'))}`;
}

export interface ViewerMarks {
  readonly canEdit: boolean;
  readonly favorited: boolean;
  readonly completed: boolean;
}

/**
 * The full guide (reference §3.5), with the observed key set of the original. `inlined` are the
 * prerequisite guides whose steps come first (empty when they are excluded, and on writes).
 */
export function presentGuide(
  guide: Guide,
  ctx: PresentationContext,
  extra: { prerequisites: GuideSummaryView[]; inlined: Guide[]; viewer: ViewerMarks; comments?: BodyComments },
) {
  const comments = extra.comments ?? {};
  const s = guide.state;
  const flags = s.flags.map((flagid) => {
    const definition = GUIDE_FLAGS.find((f) => f.flagid === flagid);
    return { title: definition?.title ?? flagid, flagid, text: definition?.text ?? '' };
  });
  return {
    guideid: s.id,
    title: s.title,
    category: s.category,
    subject: s.subject,
    type: s.type,
    summary: s.summary,
    difficulty: s.difficulty,
    time_required: timeRequiredText(s.timeRequiredMin, s.timeRequiredMax),
    time_required_min: s.timeRequiredMin,
    time_required_max: s.timeRequiredMax,
    introduction_raw: s.introduction,
    introduction_rendered: ctx.renderer.block(s.introduction),
    conclusion_raw: s.conclusion,
    conclusion_rendered: ctx.renderer.block(s.conclusion),
    image: imageOrNull(ctx.images, s.imageId),
    steps: [...extra.inlined.flatMap((p) => p.steps.map((step) => presentStep(step, p.id, ctx, comments))), ...guide.steps.map((step) => presentStep(step, s.id, ctx, comments))],
    parts: s.parts.map((item) => presentItem(item, ctx.baseUrl)),
    tools: s.tools.map((item) => presentItem(item, ctx.baseUrl)),
    prerequisites: extra.prerequisites.map((p) => presentPrerequisite(p, ctx)),
    documents: s.documentIds.flatMap((id) => ctx.documents?.get(id) ?? []),
    flags,
    author: presentAuthor(s.authorId, ctx),
    revisionid: s.revisionid,
    created_date: seconds(s.createdAt),
    published_date: seconds(s.publishedAt),
    modified_date: seconds(s.modifiedAt),
    prereq_modified_date: Math.max(0, ...extra.prerequisites.map((p) => seconds(p.modifiedAt))),
    public: s.isPublic,
    locale: s.locale,
    langid: s.locale,
    available_langids: guide.availableLangids,
    url: guideUrl(s.id, s.title, ctx.baseUrl),
    patrol_threshold: 0,
    can_edit: extra.viewer.canEdit,
    favorited: extra.viewer.favorited,
    completed: extra.viewer.completed,
    comments: presentComments(comments.threads?.guides.get(s.id), ctx),
    featured_documentid: s.featuredDocumentId,
    featured_document_embed_url: '',
    featured_document_thumbnail_url: '',
    intro_video_url: null,
    intro_video: null,
    contributors: presentContributors(guide, ctx),
    translators: presentTranslators(guide, ctx),
    favorites_count: guide.statistics.favorites,
    completions_count: guide.statistics.completions,
    // Last: served bodies refresh it in place (see withViews).
    views: guide.statistics.views,
  };
}
