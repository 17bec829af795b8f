import { parseBlocks } from './block.js';
import { normalizeSource } from './escape.js';
import { blocksHtml, inlineHtml } from './html.js';
import { parseInline, type InlineContext } from './inline.js';
import { resolveOptions, type MarkupOptions } from './options.js';
import { plainBlocks } from './plain-text.js';

/**
 * Wiki markup (`*_raw`) to HTML (`*_rendered`), safe by construction: every piece of text is
 * escaped, only a fixed set of tags and attributes is ever written, and URLs pass the URL policy
 * (see urls.ts). Empty or whitespace-only input gives ''.
 */
export function renderWiki(raw: string, options?: MarkupOptions): string {
  const source = normalizeSource(raw);
  if (source.trim() === '') return '';
  return blocksHtml(parseBlocks(source, { options: resolveOptions(options), links: true, media: true }));
}

/**
 * One guide step line: bold, italic and links only (wiki, guide, product, external), no blocks,
 * no paragraphs; `[image|...]` and `[video|...]` stay literal text. A line break, should the
 * text contain one, becomes <br />.
 */
export function renderInline(raw: string, options?: MarkupOptions): string {
  const source = normalizeSource(raw);
  if (source.trim() === '') return '';
  const ctx: InlineContext = { options: resolveOptions(options), links: true, media: false };
  return source
    .trim()
    .split('\n')
    .map((line) => inlineHtml(parseInline(line.trim(), ctx)))
    .join('<br />');
}

/**
 * The text of the markup, for search indexing and summaries: formatting dropped, links replaced
 * by their labels, images and videos dropped; blocks separated by a blank line, list items and
 * paragraph lines one per line. Plain text, NOT HTML: escape it before putting it in a page.
 */
export function toPlainText(raw: string): string {
  const source = normalizeSource(raw);
  if (source.trim() === '') return '';
  return plainBlocks(parseBlocks(source, { options: resolveOptions(), links: true, media: true }));
}
