import { isId, type Violation } from '@rc/shared-kernel';
import { BULLETS, canonicalJson, MAX_LEVEL, MAX_LINE_LENGTH, MAX_LINES, MAX_STEP_IMAGES, MAX_TITLE_LENGTH, type Bullet } from './guide-vocabulary.js';

export interface Line {
  readonly lineid: number;
  readonly text: string;
  readonly bullet: Bullet;
  readonly level: number;
}

/** Step media as stored: up to three images, or one video/embed object, or nothing. */
export type StepMedia = { readonly type: 'image'; readonly imageIds: readonly number[] } | { readonly type: 'video' | 'embed'; readonly objectId: number } | { readonly type: 'none' };

export interface StepState {
  readonly id: number;
  readonly orderby: number;
  readonly revisionid: number;
  readonly title: string;
  readonly lines: readonly Line[];
  readonly media: StepMedia;
}

/** What a client may write to a step (already parsed as JSON; checked here). */
export interface StepInput {
  readonly title?: unknown;
  readonly lines?: unknown;
  readonly media?: unknown;
}

const NO_MEDIA: StepMedia = { type: 'none' };

/**
 * A step of a guide: its lines obey the rules of the original API (1 to 8 lines of 1 to 350
 * characters, levels 0 to 2, the first at level 0, none more than one level deeper than the one
 * above). Steps live inside the Guide aggregate.
 */
export class Step implements StepState {
  readonly id!: number;
  readonly orderby!: number;
  readonly revisionid!: number;
  readonly title!: string;
  readonly lines!: readonly Line[];
  readonly media!: StepMedia;
  /** Set when the content changed since it was loaded: the repository gives it a new revision. */
  changed = false;

  private constructor(state: StepState) {
    Object.assign(this, state);
  }

  static restore(state: StepState): Step {
    return new Step(state);
  }

  /** A new step (id 0 until stored). `input.lines` is required. */
  static create(input: StepInput, violations: Violation[], index?: number): Step | null {
    const content = Step.readContent(input, true, violations, index);
    if (!content) return null;
    const step = new Step({ id: 0, orderby: 0, revisionid: 0, title: content.title ?? '', lines: content.lines!, media: content.media ?? NO_MEDIA });
    step.changed = true;
    return step;
  }

  /** Applies the given parts; returns whether anything changed. Throws nothing: collects violations. */
  edit(input: StepInput, violations: Violation[]): boolean {
    const content = Step.readContent(input, false, violations);
    if (!content) return false;
    const next = {
      title: content.title ?? this.title,
      lines: content.lines ? this.keepLineIds(content.lines) : this.lines,
      media: content.media ?? this.media,
    };
    if (canonicalJson(next) === canonicalJson({ title: this.title, lines: this.lines, media: this.media })) return false;
    Object.assign(this, next);
    this.changed = true;
    return true;
  }

  moveTo(orderby: number): void {
    if (this.orderby !== orderby) Object.assign(this, { orderby });
  }

  /** Takes the content (title, lines, media) of a stored state, as a revert does; returns whether anything changed. */
  restoreContent(old: StepState): boolean {
    const next = { title: old.title, lines: old.lines, media: old.media };
    if (canonicalJson(next) === canonicalJson({ title: this.title, lines: this.lines, media: this.media })) return false;
    Object.assign(this, next);
    this.changed = true;
    return true;
  }

  toState(): StepState {
    return { id: this.id, orderby: this.orderby, revisionid: this.revisionid, title: this.title, lines: this.lines, media: this.media };
  }

  /** Lines written again keep their ids by position, so unchanged lines stay the same line. */
  private keepLineIds(lines: readonly Line[]): Line[] {
    return lines.map((line, i) => ({ ...line, lineid: line.lineid || this.lines[i]?.lineid || 0 }));
  }

  private static readContent(
    input: StepInput,
    requireLines: boolean,
    violations: Violation[],
    index?: number,
  ): { title?: string; lines?: Line[]; media?: StepMedia } | null {
    const before = violations.length;
    const at = (v: Violation): Violation => (index === undefined ? v : { ...v, index });
    const out: { title?: string; lines?: Line[]; media?: StepMedia } = {};
    if (input.title !== undefined) {
      if (typeof input.title !== 'string') violations.push(at({ field: 'title', message: 'title must be a string' }));
      else if ([...input.title.trim()].length > MAX_TITLE_LENGTH) violations.push(at({ field: 'title', message: `title must be at most ${MAX_TITLE_LENGTH} characters` }));
      else out.title = input.title.trim();
    }
    if (input.lines !== undefined || requireLines) out.lines = readLines(input.lines, violations, index);
    if (input.media !== undefined) out.media = readMedia(input.media, violations, index);
    return violations.length > before ? null : out;
  }
}

function readLines(raw: unknown, violations: Violation[], stepIndex?: number): Line[] {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_LINES) {
    violations.push({ field: 'lines', message: `lines must be a list of 1 to ${MAX_LINES} lines`, ...(stepIndex === undefined ? {} : { index: stepIndex }) });
    return [];
  }
  const lines: Line[] = [];
  raw.forEach((item: unknown, index) => {
    const fail = (message: string) => violations.push({ field: 'lines', message, index });
    if (!item || typeof item !== 'object' || Array.isArray(item)) return void fail('each line must be an object with text, bullet and level');
    const { text, bullet = 'black', level = 0, lineid } = item as Record<string, unknown>;
    const known = new Set(['text', 'text_raw', 'bullet', 'level', 'lineid']);
    const unknown = Object.keys(item).filter((k) => !known.has(k));
    if (unknown.length) return void fail(`unknown line field '${unknown[0]}'`);
    const body = text ?? (item as Record<string, unknown>)['text_raw'];
    if (typeof body !== 'string' || body.trim().length === 0) return void fail('line text must be a non-empty string');
    if ([...body].length > MAX_LINE_LENGTH) return void fail(`line text must be at most ${MAX_LINE_LENGTH} characters`);
    if (typeof bullet !== 'string' || !(BULLETS as readonly string[]).includes(bullet)) return void fail(`bullet must be one of ${BULLETS.join(', ')}`);
    if (typeof level !== 'number' || !Number.isInteger(level) || level < 0 || level > MAX_LEVEL) return void fail(`level must be an integer from 0 to ${MAX_LEVEL}`);
    const previous = index === 0 ? -1 : (lines[index - 1]?.level ?? (raw[index - 1] as { level?: number })?.level ?? 0);
    if (index === 0 && level !== 0) return void fail('the first line must be at level 0');
    if (index > 0 && level > previous + 1) return void fail('a line may be at most one level deeper than the line above');
    if (lineid !== undefined && lineid !== null && (typeof lineid !== 'number' || !Number.isInteger(lineid) || lineid < 0)) return void fail('lineid must be a non-negative integer');
    lines.push({ lineid: typeof lineid === 'number' ? lineid : 0, text: body, bullet: bullet as Bullet, level });
  });
  return lines;
}

function readMedia(raw: unknown, violations: Violation[], stepIndex?: number): StepMedia | undefined {
  const fail = (message: string) => {
    violations.push({ field: 'media', message, ...(stepIndex === undefined ? {} : { index: stepIndex }) });
    return undefined;
  };
  if (raw === null) return NO_MEDIA;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('media must be {type: "image", data: [imageid, ...]} or {type: "object", data: objectid}');
  const { type, data } = raw as Record<string, unknown>;
  if (type === 'image') {
    if (!Array.isArray(data) || data.length > MAX_STEP_IMAGES || !data.every(isId)) {
      return fail(`image media data must be a list of at most ${MAX_STEP_IMAGES} image ids`);
    }
    return data.length ? { type: 'image', imageIds: [...(data as number[])] } : NO_MEDIA;
  }
  if (type === 'object' || type === 'video' || type === 'embed') {
    if (data === null) return NO_MEDIA;
    if (!isId(data)) return fail('object media data must be an object id or null');
    return { type: type === 'embed' ? 'embed' : 'video', objectId: data as number };
  }
  return fail('media type must be image or object');
}
