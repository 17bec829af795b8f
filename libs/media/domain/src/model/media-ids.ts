import { parseId, type Brand } from '@rc/shared-kernel';

export type ImageId = Brand<number, 'ImageId'>;
export type VideoId = Brand<number, 'VideoId'>;
export type EmbedId = Brand<number, 'EmbedId'>;
export type DocumentId = Brand<number, 'DocumentId'>;

/** The kinds of media content can use. */
export const MEDIA_KINDS = ['image', 'video', 'embed', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * A GUID is the public, unguessable key of a stored file (the CDN key of the original service,
 * e.g. `FucWIkw2ZEBiIJHk`): 16 letters and digits, the first always a letter, so a GUID is never
 * read as an id.
 */
export const GUID_PATTERN = /^[A-Za-z][A-Za-z0-9]{15}$/;

export function isGuid(value: string): boolean {
  return GUID_PATTERN.test(value);
}

/** How a path names a media object: its id or its GUID. */
export type MediaRef = { readonly id: number } | { readonly guid: string };

/**
 * Reads a path segment as an id (all digits) or a GUID; `null` when it is neither. The reference
 * says all-digit strings shorter than 16 characters are ids; longer all-digit strings are no id
 * (they pass 32 bits) and no GUID either.
 */
export function parseMediaRef(raw: string): MediaRef | null {
  const id = parseId(raw);
  if (id !== null) return { id };
  return isGuid(raw) ? { guid: raw } : null;
}
