import type { ImagesInContent } from '@rc/media-contracts';
import type { MediaKind } from '../model/media-ids.js';
import type { MediaViewer } from '../model/media-viewer.js';

/**
 * Where content uses media. Other contexts own the content (guides, wiki pages, users' avatars),
 * so each implements this port for its own; the application combines them (`CompositeMediaUsage`).
 */
export abstract class MediaUsage {
  /** Which of these media some content uses (any viewer, published or not). */
  abstract usedAmong(kind: MediaKind, ids: readonly number[]): Promise<Set<number>>;
  /** Whether the medium appears in content this viewer may view. */
  abstract visibleThroughContent(kind: MediaKind, id: number, viewer: MediaViewer): Promise<boolean>;
  /** The files of these media changed (sizes made, a rotation, a removal): content keeping their objects refreshes them. */
  async changed(_kind: MediaKind, _ids: readonly number[]): Promise<void> {
    // Nothing keeps media objects by default.
  }
}

/** Several contexts' usages as one: used if any uses it, visible if any shows it. */
export class CompositeMediaUsage extends MediaUsage {
  constructor(private readonly parts: readonly MediaUsage[]) {
    super();
  }

  async usedAmong(kind: MediaKind, ids: readonly number[]): Promise<Set<number>> {
    const used = new Set<number>();
    let left = [...ids];
    for (const part of this.parts) {
      if (!left.length) break;
      for (const id of await part.usedAmong(kind, left)) used.add(id);
      left = left.filter((id) => !used.has(id));
    }
    return used;
  }

  async visibleThroughContent(kind: MediaKind, id: number, viewer: MediaViewer): Promise<boolean> {
    for (const part of this.parts) if (await part.visibleThroughContent(kind, id, viewer)) return true;
    return false;
  }

  override async changed(kind: MediaKind, ids: readonly number[]): Promise<void> {
    for (const part of this.parts) await part.changed(kind, ids);
  }
}

/**
 * The images other contexts' content shows (guides, pages, avatars: each implements the published
 * `ImagesInContent` over its own tables) as a usage of images; other kinds of media are not theirs.
 */
export class ContentImageUsage extends MediaUsage {
  constructor(private readonly content: ImagesInContent) {
    super();
  }

  async usedAmong(kind: MediaKind, ids: readonly number[]): Promise<Set<number>> {
    return kind === 'image' && ids.length ? this.content.usedAmong(ids) : new Set();
  }

  async visibleThroughContent(kind: MediaKind, id: number, viewer: MediaViewer): Promise<boolean> {
    return kind === 'image' && this.content.visibleTo(id, { userId: viewer.userId, isAdmin: viewer.isAdmin });
  }

  override async changed(kind: MediaKind, ids: readonly number[]): Promise<void> {
    if (kind === 'image' && ids.length) await this.content.changed(ids);
  }
}
