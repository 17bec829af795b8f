import { commentAuthors, commentBody, type CommentBody, type CommunityGuides, type PublishedComment } from '@rc/community-contracts';
import type { CommentState, CommentThread, StoryState } from '@rc/community-domain';
import { unknownUserSummary, type UserSummary, type UserSummaries } from '@rc/identity-contracts';
import type { ImageObject } from '@rc/media-contracts';
import type { WikiRenderer } from '@rc/shared-http';
import { toUnixSeconds } from '@rc/shared-kernel';
import type { StoryImages } from './story-images.js';

export interface CommunitySettings {
  readonly publicBaseUrl: string;
  /** The wiki renderer guides and pages use (one memo of rendered texts): safe HTML. */
  readonly renderer: WikiRenderer;
}

/** A comment (§3.12) without its author object; a deleted comment shows no text. */
export function publishComment(c: CommentState, replies: readonly CommentState[], renderer: WikiRenderer): PublishedComment {
  const deleted = c.deletedAt !== null;
  return {
    commentid: c.id,
    locale: c.langid,
    context: c.context,
    contextid: c.contextId,
    parentid: c.parentId,
    title: '',
    text_raw: deleted ? '' : c.text,
    text_rendered: deleted ? '' : renderer.block(c.text),
    date: toUnixSeconds(c.createdAt),
    modified_date: c.modifiedAt ? toUnixSeconds(c.modifiedAt) : 0,
    status: deleted ? 'deleted' : 'public',
    rating: 0,
    authorId: c.authorId,
    replies: replies.map((r) => publishComment(r, [], renderer)),
  };
}

export function publishThreads(threads: readonly CommentThread[], renderer: WikiRenderer): PublishedComment[] {
  return threads.map((t) => publishComment(t.comment, t.replies, renderer));
}

/** A product a story mentions, by its code (this service keeps no store). */
function presentProduct(code: string, langid: string, baseUrl: string) {
  return {
    dataType: 'product' as const,
    langid,
    title: code,
    text: '',
    url: `${baseUrl}/Store/Product/${encodeURIComponent(code)}`,
    price: '',
    productCode: code,
    optionid: null,
    itemCode: code,
    optionTitle: '',
    image: null,
  };
}

/**
 * Story (reference §3.18). `guides`: the summaries of the guides still public, by id; `images`: the
 * Image objects of its pictures, by id (one gone is left out).
 */
export function presentStory(s: StoryState, author: UserSummary, guides: ReadonlyMap<number, object>, images: ReadonlyMap<number, ImageObject>, settings: CommunitySettings) {
  const { renderer, publicBaseUrl: base } = settings;
  return {
    storyid: s.id,
    langid: s.langid,
    status: s.status,
    view_url: `${base}/Story/${s.id}`,
    title_raw: s.title,
    title_rendered: renderer.inline(s.title),
    intro_raw: s.intro,
    intro_rendered: renderer.block(s.intro),
    body_raw: s.body,
    body_rendered: renderer.block(s.body),
    conclusion_raw: s.conclusion,
    conclusion_rendered: renderer.block(s.conclusion),
    rating: null,
    author,
    date: toUnixSeconds(s.createdAt),
    modified_date: toUnixSeconds(s.modifiedAt),
    images: s.imageIds.flatMap((id) => images.get(id) ?? []),
    products: s.products.map((code) => presentProduct(code, s.langid, base)),
    guides: s.guideIds.flatMap((id) => guides.get(id) ?? []),
    difficulty: s.difficulty,
    time_taken: s.timeTaken,
  };
}

/**
 * Builds comment and story bodies with their authors (the identity context's UserSummaries,
 * with their standing) in one lookup per answer, whatever the number of comments or stories.
 */
export class CommunityReader {
  constructor(
    private readonly users: UserSummaries,
    /** The guides stories mention, as the guides context presents them (public ones only). */
    private readonly guides: CommunityGuides,
    /** The Image objects of the stories' pictures, as the media context has them. */
    private readonly images: StoryImages,
    private readonly settings: CommunitySettings,
  ) {}

  async comments(items: readonly { comment: CommentState; replies: readonly CommentState[] }[]): Promise<CommentBody<UserSummary>[]> {
    const published = items.map((i) => publishComment(i.comment, i.replies, this.settings.renderer));
    const authors = await this.people(commentAuthors(published));
    return published.map((c) => commentBody(c, (id) => authors.get(id) ?? unknownUserSummary(id, this.settings.publicBaseUrl)));
  }

  async stories(stories: readonly StoryState[]) {
    const guideIds = [...new Set(stories.flatMap((s) => s.guideIds))];
    const imageIds = [...new Set(stories.flatMap((s) => s.imageIds))];
    const [authors, guides, images] = await Promise.all([
      this.people(stories.map((s) => s.authorId)),
      guideIds.length ? this.guides.publicSummaries(guideIds) : new Map<number, object>(),
      imageIds.length ? this.images.objects(imageIds) : new Map<number, ImageObject>(),
    ]);
    return stories.map((s) => presentStory(s, authors.get(s.authorId) ?? unknownUserSummary(s.authorId, this.settings.publicBaseUrl), guides, images, this.settings));
  }

  private async people(ids: readonly number[]): Promise<Map<number, UserSummary>> {
    const unique = [...new Set(ids)];
    return unique.length ? this.users.of(unique, { standings: true }) : new Map();
  }
}
