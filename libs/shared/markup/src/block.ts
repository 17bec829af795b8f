import type { Block, Inline, List } from './ast.js';
import { parseInline, type InlineContext } from './inline.js';
import { headingId, plainInline } from './plain-text.js';

/**
 * Block structure, line by line:
 *   - a blank line ends a paragraph or list;
 *   - `== h2 ==`, `=== h3 ===`, `==== h4 ====` (whole line) is a heading;
 *   - a line starting (in column 0) with a run of `*` / `#` and a space or tab is a list item;
 *     each marker character is one nesting level (`*` unordered, `#` ordered), at most MAX_LIST_DEPTH;
 *   - any other line is paragraph text; consecutive text lines are one paragraph, joined by <br />.
 * Images and videos are blocks: inside a paragraph they split it.
 */
const MAX_LIST_DEPTH = 6;

export function parseBlocks(source: string, ctx: InlineContext): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  // Open lists, outermost first, and the marker of the previous item.
  let lists: List[] = [];
  let marker = '';

  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push(...paragraphBlocks(paragraph, ctx));
    paragraph = [];
  };
  const endList = () => {
    lists = [];
    marker = '';
  };

  for (const line of source.split('\n')) {
    if (line.trim() === '') {
      endParagraph();
      endList();
      continue;
    }
    const heading = parseHeading(line);
    if (heading) {
      endParagraph();
      endList();
      const children = parseInline(heading.text, { ...ctx, media: false });
      blocks.push({ kind: 'heading', level: heading.level, id: headingId(plainInline(children)), children });
      continue;
    }
    const item = parseListItem(line);
    if (item) {
      endParagraph();
      const children = parseInline(item.text.trim(), ctx);
      const fresh = addListItem(lists, marker, item.marker, children);
      if (fresh) blocks.push(fresh);
      marker = item.marker;
      continue;
    }
    endList();
    paragraph.push(line.trim());
  }
  endParagraph();
  return blocks;
}

function parseHeading(line: string): { level: 2 | 3 | 4; text: string } | null {
  const t = line.trim();
  let lead = 0;
  while (t[lead] === '=') lead++;
  let trail = 0;
  while (trail < t.length && t[t.length - 1 - trail] === '=') trail++;
  const level = Math.min(lead, trail, 4);
  if (level < 2 || t.length < 2 * level + 1) return null;
  // Surplus `=` on one side stays in the text (`=== a ==` is an h2 reading "= a").
  const text = t.slice(level, t.length - level).trim();
  return text ? { level: level as 2 | 3 | 4, text } : null;
}

function parseListItem(line: string): { marker: string; text: string } | null {
  let end = 0;
  while (line[end] === '*' || line[end] === '#') end++;
  if (end === 0 || (line[end] !== ' ' && line[end] !== '\t')) return null;
  return { marker: line.slice(0, Math.min(end, MAX_LIST_DEPTH)), text: line.slice(end + 1) };
}

/**
 * Adds an item whose marker is `next` after an item whose marker was `previous` (MediaWiki style):
 * lists beyond the common prefix of the two markers close, lists for the rest of `next` open, each
 * inside the last item of its parent. Returns a new top-level list, if one was opened.
 */
function addListItem(lists: List[], previous: string, next: string, children: Inline[]): List | null {
  let common = 0;
  while (common < previous.length && common < next.length && previous[common] === next[common]) common++;
  // Lists past the common prefix close. When `next` is the common prefix (same marker, or a prefix
  // of the previous one), the item is a sibling in the innermost remaining list.
  lists.length = Math.min(lists.length, common);
  let created: List | null = null;
  for (let level = lists.length; level < next.length; level++) {
    const list: List = { kind: 'list', ordered: next[level] === '#', items: [] };
    const parent = lists[level - 1];
    if (parent) {
      // A list nested deeper than the previous item (`**` right after `*`, or at the very start)
      // hangs from the parent's last item, created empty if there is none.
      let host = parent.items[parent.items.length - 1];
      if (!host) parent.items.push((host = { children: [], lists: [] }));
      host.lists.push(list);
    } else {
      created = list;
    }
    lists.push(list);
  }
  lists[lists.length - 1]!.items.push({ children, lists: [] });
  return created;
}

/** One paragraph's lines: inline markup, <br /> between lines, split around images and videos. */
function paragraphBlocks(lines: string[], ctx: InlineContext): Block[] {
  const blocks: Block[] = [];
  let run: Inline[] = [];
  const endRun = () => {
    const children = trimBreaks(run);
    if (children.some((n) => n.kind !== 'br' && !(n.kind === 'text' && n.text.trim() === ''))) {
      blocks.push({ kind: 'paragraph', children });
    }
    run = [];
  };
  lines.forEach((line, index) => {
    if (index > 0) run.push({ kind: 'br' });
    for (const node of parseInline(line, ctx)) {
      if (node.kind === 'image' || node.kind === 'video') {
        endRun();
        blocks.push(node);
      } else {
        run.push(node);
      }
    }
  });
  endRun();
  return blocks;
}

/** Drops line breaks and blank text at both ends, and the whitespace at the ends of the text. */
function trimBreaks(nodes: Inline[]): Inline[] {
  let start = 0;
  let end = nodes.length;
  const blank = (n: Inline | undefined) => n?.kind === 'br' || (n?.kind === 'text' && n.text.trim() === '');
  while (start < end && blank(nodes[start])) start++;
  while (end > start && blank(nodes[end - 1])) end--;
  const trimmed = nodes.slice(start, end);
  const first = trimmed[0];
  if (first?.kind === 'text') trimmed[0] = { kind: 'text', text: first.text.trimStart() };
  const last = trimmed[trimmed.length - 1];
  if (last?.kind === 'text') trimmed[trimmed.length - 1] = { kind: 'text', text: last.text.trimEnd() };
  return trimmed;
}
