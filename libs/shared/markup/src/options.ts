import type { ImageSize } from './ast.js';
import { safeUrl } from './urls.js';

/** How the renderer turns ids into URLs. Both are optional; the defaults are site-relative. */
export interface MarkupOptions {
  /** URL of an image at a size. Default: `/igi/<id>.<size>`. */
  readonly imageUrl?: (id: number, size: ImageSize) => string;
  /** URL of a guide. Default: `/Guide/<id>`. */
  readonly guideUrl?: (id: number) => string;
}

export interface ResolvedOptions {
  imageUrl(id: number, size: ImageSize): string;
  guideUrl(id: number): string;
}

const defaultImageUrl = (id: number, size: ImageSize): string => `/igi/${id}.${size}`;
const defaultGuideUrl = (id: number): string => `/Guide/${id}`;

/**
 * The callbacks' URLs go through the same URL policy as the markup's own: a callback that returns
 * anything but an http(s) or site-relative URL gets the default URL instead (safe by construction,
 * whatever the caller supplies).
 */
export function resolveOptions(options: MarkupOptions = {}): ResolvedOptions {
  const { imageUrl, guideUrl } = options;
  return {
    imageUrl: (id, size) => (imageUrl && safeUrl(String(imageUrl(id, size)))) || defaultImageUrl(id, size),
    guideUrl: (id) => (guideUrl && safeUrl(String(guideUrl(id)))) || defaultGuideUrl(id),
  };
}
