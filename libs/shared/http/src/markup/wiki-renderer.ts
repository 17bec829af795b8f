import { LRUCache } from 'lru-cache';
import { createWikiRenderer, type WikiRenderer } from './render.js';

/** Rendered texts kept per process, by UTF-16 length of raw and rendered text together. */
const MEMO_BUDGET_CHARS = 8 * 1024 * 1024;
/** Longer texts are rendered each time (rare, and they would crowd out the step lines). */
const MEMO_MAX_RAW_CHARS = 4096;

/**
 * The renderer guides and pages use: wiki markup to HTML, safe by construction and sanitized
 * again, with image links in the same form as the API's Image objects. Rendering is a pure
 * function of the text, so results are remembered (least recently used first out, within a
 * character budget): a guide body built again after an edit renders only the texts that changed.
 */
export function wikiRendererFor(publicBaseUrl: string): WikiRenderer {
  return memoizedRenderer(createWikiRenderer({ imageUrl: (id, size) => `${publicBaseUrl}/igi/i${id}.${size === 'original' ? 'full' : size}` }));
}

export function memoizedRenderer(renderer: WikiRenderer, budgetChars = MEMO_BUDGET_CHARS): WikiRenderer {
  const block = new RenderMemo(budgetChars / 2, (raw) => renderer.block(raw));
  const inline = new RenderMemo(budgetChars / 2, (raw) => renderer.inline(raw));
  return { block: (raw) => block.get(raw), inline: (raw) => inline.get(raw) };
}

/**
 * Least recently used first out, by characters (lru-cache: a `Map` kept in order by deleting and
 * re-inserting keys costs V8 a scan over the deleted slots at its front on every eviction, about
 * 70 µs per call with 50,000 entries, which once took most of an archive build's time).
 */
class RenderMemo {
  private readonly entries: LRUCache<string, string>;

  constructor(
    budget: number,
    private readonly render: (raw: string) => string,
  ) {
    this.entries = new LRUCache<string, string>({ maxSize: Math.max(1, budget), sizeCalculation: (html, raw) => Math.max(1, raw.length + html.length) });
  }

  get(raw: string): string {
    if (raw.length > MEMO_MAX_RAW_CHARS) return this.render(raw);
    const hit = this.entries.get(raw);
    if (hit !== undefined) return hit;
    const rendered = this.render(raw);
    this.entries.set(raw, rendered);
    return rendered;
  }
}
