import {
  renderInline as renderInlineMarkup,
  renderWiki as renderWikiMarkup,
  toPlainText,
  type MarkupOptions,
} from '@rc/shared-markup';
import { sanitizeRenderedHtml } from './html-sanitizer.js';

export type { MarkupOptions };
export { toPlainText };

/**
 * Wiki markup (`*_raw`) to the `*_rendered` HTML the API emits: the pure renderer (safe by
 * construction), then the sanitizer as a second wall. Empty or whitespace-only input gives ''
 * (fields that the reference shows as `false` when empty are the caller's concern).
 */
export function renderWiki(raw: string, options?: MarkupOptions): string {
  return sanitizeRenderedHtml(renderWikiMarkup(raw, options));
}

/** A guide step line: inline markup only (bold, italic, links), then the sanitizer. */
export function renderWikiInline(raw: string, options?: MarkupOptions): string {
  return sanitizeRenderedHtml(renderInlineMarkup(raw, options));
}

/** Turns wiki markup into safe HTML (blocks for texts, inline for step lines). */
export interface WikiRenderer {
  block(raw: string): string;
  inline(raw: string): string;
}

/** Both renderings with the same options. */
export function createWikiRenderer(options?: MarkupOptions): WikiRenderer {
  return { block: (raw) => renderWiki(raw, options), inline: (raw) => renderWikiInline(raw, options) };
}
