import type { WikiRenderer } from '../guides/guide.presenter.js';
import { createWikiRenderer } from './render.js';

/**
 * The renderer guides and pages use: wiki markup to HTML, safe by construction and sanitized
 * again, with image links in the same form as the API's Image objects.
 */
export function wikiRendererFor(publicBaseUrl: string): WikiRenderer {
  return createWikiRenderer({ imageUrl: (id, size) => `${publicBaseUrl}/igi/i${id}.${size === 'original' ? 'full' : size}` });
}
