import { isId, type Brand, type Violation } from '@rc/shared-kernel';
import { InvalidStoryError } from '../community.errors.js';
import type { CommunityActor } from './comment.js';
import { readLangid, readText } from './text.js';

export type StoryId = Brand<number, 'StoryId'>;

export const STORY_TITLE_MAX = 255;
export const STORY_TEXT_MAX = 50_000;
export const STORY_MAX_IMAGES = 20;
export const STORY_MAX_GUIDES = 20;
export const STORY_MAX_PRODUCTS = 20;
/** The smallest image a story takes (reference §2.7: images of at least 800×600). */
export const STORY_MIN_IMAGE = { width: 800, height: 600 } as const;
/** One story per user per minute: another one within it is refused (429 with the latest). */
export const STORY_INTERVAL_MS = 60_000;
export const STORY_DIFFICULTIES = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'] as const;
/** Longest `time_taken` accepted (seconds): a year. */
export const STORY_TIME_TAKEN_MAX = 366 * 24 * 3600;

export interface StoryState {
  readonly id: StoryId;
  readonly authorId: number;
  readonly langid: string;
  readonly status: 'open' | 'deleted';
  /** Raw wiki markup, each. */
  readonly title: string;
  readonly intro: string;
  readonly body: string;
  readonly conclusion: string;
  /** Media image ids, in the author's order. */
  readonly imageIds: readonly number[];
  readonly guideIds: readonly number[];
  /** Product codes (this service keeps no store: products show as their codes). */
  readonly products: readonly string[];
  readonly difficulty: string | null;
  /** Seconds the repair took. */
  readonly timeTaken: number | null;
  readonly createdAt: Date;
  readonly modifiedAt: Date;
}

/** The fields of a story as a client sent them (checked by `Story.create` and `Story.edit`). */
export interface StoryInput {
  readonly title?: unknown;
  readonly intro?: unknown;
  readonly body?: unknown;
  readonly conclusion?: unknown;
  readonly langid?: unknown;
  readonly images?: unknown;
  readonly guides?: unknown;
  readonly products?: unknown;
  readonly object?: unknown;
  readonly difficulty?: unknown;
  readonly time_taken?: unknown;
}

/** Writable fields, for PATCH (`object` is accepted and ignored, as in the original's list). */
export const STORY_EDIT_FIELDS = ['title', 'intro', 'body', 'conclusion', 'images', 'guides', 'products', 'object', 'difficulty', 'time_taken'] as const;

type Fields = Omit<StoryState, 'id' | 'authorId' | 'status' | 'createdAt' | 'modifiedAt'>;

function readIds(raw: unknown, field: string, max: number, violations: Violation[]): number[] | undefined {
  if (!Array.isArray(raw)) {
    violations.push({ field, message: `${field} must be an array of ids` });
    return undefined;
  }
  if (raw.length > max) {
    violations.push({ field, message: `${field} may hold at most ${max} ids` });
    return undefined;
  }
  const bad = raw.findIndex((v) => !isId(v));
  if (bad >= 0) {
    violations.push({ field, message: `${field} must hold positive integer ids`, index: bad });
    return undefined;
  }
  const ids = raw as number[];
  if (new Set(ids).size !== ids.length) {
    violations.push({ field, message: `${field} names an id twice` });
    return undefined;
  }
  return ids;
}

function readProducts(raw: unknown, violations: Violation[]): string[] | undefined {
  if (!Array.isArray(raw) || raw.length > STORY_MAX_PRODUCTS) {
    violations.push({ field: 'products', message: `products must be an array of at most ${STORY_MAX_PRODUCTS} product codes` });
    return undefined;
  }
  const bad = raw.findIndex((v) => typeof v !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(v));
  if (bad >= 0) {
    violations.push({ field: 'products', message: 'A product code is 1 to 64 letters, digits, dots, dashes or underscores', index: bad });
    return undefined;
  }
  return [...new Set(raw as string[])];
}

/** Reads the fields present in `input` (all of them required when `creating`). */
function readFields(input: StoryInput, creating: boolean, violations: Violation[]): Partial<Fields> {
  const out: { -readonly [K in keyof Fields]?: Fields[K] } = {};
  const has = (key: keyof StoryInput) => input[key] !== undefined;
  if (creating || has('title')) out.title = readText(input.title, 'title', { max: STORY_TITLE_MAX, singleLine: true }, violations);
  for (const key of ['intro', 'body', 'conclusion'] as const) {
    if (creating || has(key)) out[key] = readText(input[key], key, { max: STORY_TEXT_MAX }, violations);
  }
  if (creating) out.langid = has('langid') ? readLangid(input.langid, violations) : 'en';
  if (has('images')) out.imageIds = readIds(input.images, 'images', STORY_MAX_IMAGES, violations);
  if (has('guides')) out.guideIds = readIds(input.guides, 'guides', STORY_MAX_GUIDES, violations);
  if (has('products')) out.products = readProducts(input.products, violations);
  if (has('difficulty')) {
    if (input.difficulty === null) out.difficulty = null;
    else if ((STORY_DIFFICULTIES as readonly unknown[]).includes(input.difficulty)) out.difficulty = input.difficulty as string;
    else violations.push({ field: 'difficulty', message: `difficulty must be one of ${STORY_DIFFICULTIES.join(', ')}` });
  }
  if (has('time_taken')) {
    const t = input.time_taken;
    if (t === null) out.timeTaken = null;
    else if (typeof t === 'number' && Number.isInteger(t) && t >= 0 && t <= STORY_TIME_TAKEN_MAX) out.timeTaken = t;
    else violations.push({ field: 'time_taken', message: `time_taken must be whole seconds from 0 to ${STORY_TIME_TAKEN_MAX}` });
  }
  return out;
}

/**
 * A repair story: a title, an introduction, a body and a conclusion (wiki markup), with images,
 * guides and products it mentions. Only its author or an Admin edits it. The images must be the
 * author's and large enough, the guides must exist: the use cases check those against other
 * contexts before the story is stored.
 */
export class Story {
  private changed = false;

  private constructor(private current: StoryState) {}

  static restore(state: StoryState): Story {
    return new Story({ ...state });
  }

  static create(id: StoryId, author: CommunityActor, input: StoryInput, now: Date): Story {
    const violations: Violation[] = [];
    const f = readFields(input, true, violations);
    if (violations.length) throw new InvalidStoryError(violations);
    const story = new Story({
      id,
      authorId: author.userId,
      langid: f.langid!,
      status: 'open',
      title: f.title!,
      intro: f.intro!,
      body: f.body!,
      conclusion: f.conclusion!,
      imageIds: f.imageIds ?? [],
      guideIds: f.guideIds ?? [],
      products: f.products ?? [],
      difficulty: f.difficulty ?? null,
      timeTaken: f.timeTaken ?? null,
      createdAt: now,
      modifiedAt: now,
    });
    story.changed = true;
    return story;
  }

  get id(): StoryId {
    return this.current.id;
  }

  get state(): StoryState {
    return this.current;
  }

  get hasChanges(): boolean {
    return this.changed;
  }

  mayEdit(actor: CommunityActor): boolean {
    return actor.isAdmin || actor.userId === this.current.authorId;
  }

  /**
   * Applies the fields present (checked as on creation). Answers the image ids added by this edit
   * (the caller checks them) ; no change at all keeps `modified_date`.
   */
  edit(input: StoryInput, now: Date): number[] {
    const violations: Violation[] = [];
    const f = readFields(input, false, violations);
    if (violations.length) throw new InvalidStoryError(violations);
    const next: StoryState = { ...this.current, ...Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) };
    const added = next.imageIds.filter((id) => !this.current.imageIds.includes(id));
    if (JSON.stringify(next) !== JSON.stringify(this.current)) {
      this.current = { ...next, modifiedAt: now };
      this.changed = true;
    }
    return added;
  }

  markStored(): void {
    this.changed = false;
  }
}
