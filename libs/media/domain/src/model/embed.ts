import type { Violation } from '@rc/shared-kernel';
import { InvalidMediaFieldsError } from '../media.errors.js';
import type { EmbedId } from './media-ids.js';
import { readCount, readHttpUrl, readPlainText } from './text-fields.js';

export const EMBED_TYPES = ['video', 'rich', 'photo', 'link'] as const;
export type EmbedType = (typeof EMBED_TYPES)[number];

/**
 * An oEmbed response as a provider (or a client) gave it. `html` is deliberately not a field:
 * provider markup is never stored or served; the HTTP layer builds its own safe markup from the URL.
 */
export interface OEmbedFields {
  readonly type?: unknown;
  readonly title?: unknown;
  readonly provider_name?: unknown;
  readonly provider_url?: unknown;
  readonly author_name?: unknown;
  readonly author_url?: unknown;
  readonly width?: unknown;
  readonly height?: unknown;
  readonly thumbnail_url?: unknown;
}

export interface EmbedState {
  readonly id: EmbedId;
  readonly ownerId: number;
  /** The page embedded (what the user pasted). */
  readonly url: string;
  readonly type: EmbedType;
  readonly title: string | null;
  readonly providerName: string | null;
  readonly providerUrl: string | null;
  readonly authorName: string | null;
  readonly authorUrl: string | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly thumbnailUrl: string | null;
  readonly createdAt: Date;
  readonly deletedAt: Date | null;
}

/** A video or page of another site shown in a step (reference §3.8 `embed`, §3.13). */
export class Embed {
  private constructor(private current: EmbedState) {}

  static restore(state: EmbedState): Embed {
    return new Embed({ ...state });
  }

  /** Checks every field (plain text only, http(s) URLs) and refuses the lot with one violation per bad field. */
  static create(id: EmbedId, ownerId: number, url: unknown, fields: OEmbedFields, now: Date): Embed {
    const v: Violation[] = [];
    const page = readHttpUrl(url, 'url', v, true);
    const type = fields.type === undefined ? 'rich' : fields.type;
    if (typeof type !== 'string' || !(EMBED_TYPES as readonly string[]).includes(type)) v.push({ field: 'type', message: `type must be one of ${EMBED_TYPES.join(', ')}` });
    const state: EmbedState = {
      id,
      ownerId,
      url: page ?? '',
      type: type as EmbedType,
      title: readPlainText(fields.title, 'title', 255, v),
      providerName: readPlainText(fields.provider_name, 'provider_name', 255, v),
      providerUrl: readHttpUrl(fields.provider_url, 'provider_url', v),
      authorName: readPlainText(fields.author_name, 'author_name', 255, v),
      authorUrl: readHttpUrl(fields.author_url, 'author_url', v),
      width: readCount(fields.width, 'width', 10000, v),
      height: readCount(fields.height, 'height', 10000, v),
      thumbnailUrl: readHttpUrl(fields.thumbnail_url, 'thumbnail_url', v),
      createdAt: now,
      deletedAt: null,
    };
    if (v.length) throw new InvalidMediaFieldsError(v);
    return new Embed(state);
  }

  get id(): EmbedId {
    return this.current.id;
  }

  get state(): EmbedState {
    return this.current;
  }

  get isDeleted(): boolean {
    return this.current.deletedAt !== null;
  }

  removeFromLibrary(now: Date): void {
    if (!this.isDeleted) this.current = { ...this.current, deletedAt: now };
  }
}
