import { IMAGE_ALIGNS, IMAGE_SIZES, type ImageAlign, type ImageSize, type Inline } from './ast.js';
import type { ResolvedOptions } from './options.js';
import { pathSegment, safeAbsoluteUrl, safeUrl } from './urls.js';

/**
 * Inline markup of one line: `'''bold'''`, `''italic''` and the bracket constructs.
 *
 * A single left-to-right scan, no backtracking regexes: the scan turns the line into tokens
 * (text, quote toggles, finished link/media nodes), unmatched quote toggles become literal text,
 * then a stack builds properly nested strong/em elements. Every step is linear in the line.
 */
export interface InlineContext {
  readonly options: ResolvedOptions;
  /** Bracket links (`[[...]]`, `[link|...]`, `[guide|...]`, ...). Off inside link labels: no nested anchors. */
  readonly links: boolean;
  /** `[image|...]` and `[video|...]`. Off in headings and inline (step line) rendering. */
  readonly media: boolean;
}

type Toggle = 'strong' | 'em' | 'both';
type Token = { readonly t: 'text'; readonly text: string } | { readonly t: Toggle } | { readonly t: 'node'; readonly node: Inline };

const MAX_ID_DIGITS = 15; // stays a safe integer
const MAX_PRODUCT_CODE = 100;
const DIGITS = /^\d+$/;
const PRODUCT_CODE = /^[A-Za-z0-9_-]+$/;
const ABSOLUTE_HEAD = /^https?:\/\//i;

export function parseInline(line: string, ctx: InlineContext): Inline[] {
  if (line === '') return [];
  // Most text has no markup at all: skip the machinery.
  if (!line.includes("''") && !((ctx.links || ctx.media) && line.includes('['))) return [{ kind: 'text', text: line }];
  return buildTree(matchToggles(tokenize(line, ctx)));
}

/** Finds the next occurrence of a character; `from` never decreases, so the scan stays linear. */
class NextChar {
  private at = -2;
  constructor(
    private readonly source: string,
    private readonly char: string,
  ) {}

  from(index: number): number {
    if (this.at !== -1 && this.at < index) this.at = this.source.indexOf(this.char, index);
    return this.at;
  }
}

function tokenize(line: string, ctx: InlineContext): Token[] {
  const tokens: Token[] = [];
  const brackets = ctx.links || ctx.media;
  const nextClose = new NextChar(line, ']');
  const nextOpen = new NextChar(line, '[');
  let textStart = 0;
  let i = 0;
  const flushText = (end: number) => {
    if (end > textStart) tokens.push({ t: 'text', text: line.slice(textStart, end) });
  };

  while (i < line.length) {
    const c = line[i];
    if (c === "'") {
      let j = i + 1;
      while (line[j] === "'") j++;
      const run = j - i;
      if (run >= 2) {
        flushText(i);
        if (run === 2) tokens.push({ t: 'em' });
        else if (run === 3) tokens.push({ t: 'strong' });
        else if (run === 4) tokens.push({ t: 'text', text: "'" }, { t: 'strong' });
        else {
          if (run > 5) tokens.push({ t: 'text', text: "'".repeat(run - 5) });
          tokens.push({ t: 'both' });
        }
        textStart = j;
      }
      i = j;
    } else if (c === '[' && brackets) {
      const parsed = parseBracket(line, i, ctx, nextOpen, nextClose);
      if (parsed) {
        flushText(i);
        tokens.push({ t: 'node', node: parsed.node });
        i = textStart = parsed.end;
      } else {
        i++; // the `[` is literal text; a construct may still start at the next character
      }
    } else {
      i++;
    }
  }
  flushText(line.length);
  return tokens;
}

const carriesStrong = (t: Token) => t.t === 'strong' || t.t === 'both';
const carriesEm = (t: Token) => t.t === 'em' || t.t === 'both';

/** A toggle without a partner in the line is literal text: `'''` or `''` as typed. */
function matchToggles(tokens: Token[]): Token[] {
  let out = tokens;
  for (const [carries, literal, rest] of [
    [carriesStrong, "'''", 'em'],
    [carriesEm, "''", 'strong'],
  ] as const) {
    const count = out.reduce((n, t) => (carries(t) ? n + 1 : n), 0);
    if (count % 2 === 0) continue;
    const last = out.findLastIndex(carries);
    const replacement: Token[] =
      out[last]!.t === 'both' ? [{ t: 'text', text: literal }, { t: rest }] : [{ t: 'text', text: literal }];
    out = [...out.slice(0, last), ...replacement, ...out.slice(last + 1)];
  }
  return out;
}

interface Frame {
  readonly kind: 'root' | 'strong' | 'em';
  readonly children: Inline[];
}

function buildTree(tokens: Token[]): Inline[] {
  const root: Frame = { kind: 'root', children: [] };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1]!;

  const append = (node: Inline) => {
    const children = top().children;
    const last = children[children.length - 1];
    if (node.kind === 'text' && last?.kind === 'text') last.text += node.text;
    else children.push(node);
  };
  // Pops every frame at stack position `index` or above; returns their kinds, outermost first.
  const popFrom = (index: number): Array<'strong' | 'em'> => {
    const popped: Array<'strong' | 'em'> = [];
    while (stack.length > Math.max(index, 1)) {
      const frame = stack.pop()!;
      if (frame.kind === 'root') break; // unreachable: the root stays at position 0
      popped.unshift(frame.kind);
      if (frame.children.length > 0) append({ kind: frame.kind, children: frame.children });
    }
    return popped;
  };
  const open = (kind: 'strong' | 'em') => stack.push({ kind, children: [] });
  const toggle = (kind: 'strong' | 'em') => {
    const index = stack.findLastIndex((f) => f.kind === kind);
    if (index === -1) open(kind);
    else popFrom(index).slice(1).forEach(open); // close `kind`, reopen what was inside it
  };

  for (const token of tokens) {
    switch (token.t) {
      case 'text':
        append({ kind: 'text', text: token.text });
        break;
      case 'strong':
      case 'em':
        toggle(token.t);
        break;
      case 'both': {
        const s = stack.findLastIndex((f) => f.kind === 'strong');
        const e = stack.findLastIndex((f) => f.kind === 'em');
        // Close the inner one first; open strong outside em.
        if (s === -1 && e === -1) (['strong', 'em'] as const).forEach(toggle);
        else if (s > e) (['strong', 'em'] as const).forEach(toggle);
        else (['em', 'strong'] as const).forEach(toggle);
        break;
      }
      case 'node':
        if (token.node.kind === 'image' || token.node.kind === 'video') {
          // Media are blocks: close any open formatting around them and reopen it after.
          const reopen = popFrom(1);
          append(token.node);
          reopen.forEach(open);
        } else {
          append(token.node);
        }
        break;
    }
  }
  popFrom(1); // toggles are paired, so nothing is open here; this is only a safety net
  return root.children;
}

// ---------------------------------------------------------------------------------------------
// Bracket constructs
// ---------------------------------------------------------------------------------------------

interface Parsed {
  readonly node: Inline;
  readonly end: number;
}

/**
 * `[[...]]` or `[...]` starting at `start`. The content may not contain `[` or `]`. Anything that
 * is not a well-formed, allowed construct gives null: the caller keeps the `[` as literal text.
 */
function parseBracket(line: string, start: number, ctx: InlineContext, nextOpen: NextChar, nextClose: NextChar): Parsed | null {
  const double = line[start + 1] === '[';
  const from = start + (double ? 2 : 1);
  const close = nextClose.from(from);
  if (close === -1) return null;
  const open = nextOpen.from(from);
  if (open !== -1 && open < close) return null;
  const content = line.slice(from, close);
  if (double) {
    if (line[close + 1] !== ']' || !ctx.links) return null;
    const node = wikiLink(content, ctx);
    return node && { node, end: close + 2 };
  }
  const node = singleBracket(content, ctx);
  return node && { node, end: close + 1 };
}

/**
 * `[[Title]]`, `[[Title|label]]`. Namespaces (case-insensitive):
 *   `Category:Name` and `Device:Name` -> `/Device/Name`, `Topic:Name` -> `/Topic/Name`,
 *   anything else -> `/Wiki/Title` (a colon in a plain title is simply encoded).
 * Whitespace runs become `_`; each segment is percent-encoded. The label defaults to the title.
 */
function wikiLink(content: string, ctx: InlineContext): Inline | null {
  const bar = content.indexOf('|');
  const title = (bar === -1 ? content : content.slice(0, bar)).trim();
  if (!title) return null;
  const colon = title.indexOf(':');
  const namespace = colon === -1 ? '' : title.slice(0, colon).trim().toLowerCase();
  const name = colon === -1 ? '' : title.slice(colon + 1).trim();
  let href: string;
  if (name && (namespace === 'category' || namespace === 'device')) href = `/Device/${pathSegment(name)}`;
  else if (name && namespace === 'topic') href = `/Topic/${pathSegment(name)}`;
  else href = `/Wiki/${pathSegment(title)}`;
  return link(href, false, bar === -1 ? '' : content.slice(bar + 1), title, ctx);
}

function singleBracket(content: string, ctx: InlineContext): Inline | null {
  const parts = content.split('|');
  const head = parts[0]!.trim();
  const rest = (from: number) => parts.slice(from).join('|');

  if (ABSOLUTE_HEAD.test(head)) {
    if (!ctx.links) return null;
    const url = safeAbsoluteUrl(head);
    return url ? link(url, true, rest(1), head, ctx) : null;
  }
  switch (head.toLowerCase()) {
    case 'link': {
      if (!ctx.links || parts.length < 2) return null;
      const url = safeUrl(parts[1]!);
      if (!url) return null;
      // Absolute links leave the site (nofollow, new tab); site-relative ones are ordinary links.
      return link(url, !url.startsWith('/'), rest(2), parts[1]!.trim(), ctx);
    }
    case 'guide': {
      const id = ctx.links ? numericId(parts[1]) : null;
      return id === null ? null : link(ctx.options.guideUrl(id), false, rest(2), `Guide ${id}`, ctx);
    }
    case 'product': {
      const code = (parts[1] ?? '').trim();
      if (!ctx.links || code.length > MAX_PRODUCT_CODE || !PRODUCT_CODE.test(code)) return null;
      return link(`/Store/Product/${code}`, false, rest(2), code, ctx);
    }
    case 'image': {
      const id = ctx.media ? numericId(parts[1]) : null;
      if (id === null) return null;
      const { size, align } = imageOptions(parts.slice(2));
      return { kind: 'image', src: ctx.options.imageUrl(id, size), align };
    }
    case 'video': {
      const url = ctx.media && parts.length >= 2 ? safeAbsoluteUrl(parts[1]!) : null;
      return url ? { kind: 'video', href: url } : null;
    }
    default:
      return null;
  }
}

function numericId(part: string | undefined): number | null {
  const id = (part ?? '').trim();
  return id.length <= MAX_ID_DIGITS && DIGITS.test(id) ? Number(id) : null;
}

/**
 * `size=<size>` / `align=<align>` or the bare values, in any order and case. Unknown options and
 * unknown values are ignored (the defaults stay: medium, center).
 */
function imageOptions(parts: string[]): { size: ImageSize; align: ImageAlign } {
  let size: ImageSize = 'medium';
  let align: ImageAlign = 'center';
  for (const part of parts) {
    const eq = part.indexOf('=');
    const key = eq === -1 ? '' : part.slice(0, eq).trim().toLowerCase();
    const value = (eq === -1 ? part : part.slice(eq + 1)).trim().toLowerCase();
    const asSize = IMAGE_SIZES.find((s) => s === value);
    const asAlign = IMAGE_ALIGNS.find((a) => a === value);
    if (asSize && (key === 'size' || key === '')) size = asSize;
    else if (asAlign && (key === 'align' || key === '')) align = asAlign;
  }
  return { size, align };
}

/** The label is inline markup itself (bold/italic only: no links inside links); empty -> the fallback, as text. */
function link(href: string, external: boolean, label: string, fallback: string, ctx: InlineContext): Inline {
  const trimmed = label.trim();
  const children = trimmed ? parseInline(trimmed, { options: ctx.options, links: false, media: false }) : [{ kind: 'text' as const, text: fallback }];
  return { kind: 'link', href, external, children };
}
