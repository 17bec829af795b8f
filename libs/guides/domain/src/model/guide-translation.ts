import { type Violation } from '@rc/shared-kernel';
import { InvalidGuideError, StaleGuideTranslationError, StaleStepRevisionError } from '../guides.errors.js';
import { Guide, type Editor, type GuideId, type GuideState } from './guide.js';
import { withRevision, type GuideContributor } from './guide-statistics.js';
import { canonicalJson, MAX_LINE_LENGTH, MAX_SUMMARY_LENGTH, MAX_TEXT_LENGTH, MAX_TITLE_LENGTH } from './guide-vocabulary.js';
import type { Step, StepState } from './step.js';

/** The texts of a guide a translation gives in its language (`null`: not translated, the source's shows). */
export const TRANSLATED_FIELDS = ['title', 'subject', 'summary', 'introduction', 'conclusion'] as const;
export type TranslatedField = (typeof TRANSLATED_FIELDS)[number];

/** What every language shares: a write with `langid` that sends one of these is refused (422). */
export const SHARED_FIELDS = [
  'category', 'type', 'difficulty', 'time_required', 'time_required_min', 'time_required_max', 'image', 'flags',
  'prerequisites', 'parts', 'tools', 'public', 'documents', 'featured_documentid', 'objectid',
] as const;

/** A step's texts in the translation's language: its title and its lines, by position (`null`: the source's). */
export interface TranslatedStep {
  /** The step translation's own revision id (a step edit in this language checks it). */
  readonly revisionid: number;
  readonly title: string | null;
  readonly lines: readonly (string | null)[];
}

export interface GuideTranslationState {
  readonly guideId: GuideId;
  readonly langid: string;
  /** The translation's own revision id (0 until stored): writes in this language check it. */
  readonly revisionid: number;
  /** The revision of the guide (in its source language) this translation was made from. */
  readonly sourceRevisionid: number;
  readonly title: string | null;
  readonly subject: string | null;
  readonly summary: string | null;
  readonly introduction: string | null;
  readonly conclusion: string | null;
  /** By step id. */
  readonly steps: Readonly<Record<number, TranslatedStep>>;
  readonly contributorIds: readonly number[];
  readonly createdAt: Date;
  readonly modifiedAt: Date;
}

/** What a client writes to a translation (the guide write fields, with `source_revisionid`). */
export type GuideTranslationInput = Readonly<Record<string, unknown>>;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A guide in another language than its own: the translatable texts of the guide and its steps
 * (title, subject, summary, introduction, conclusion, step titles and line texts) keyed by guide
 * and language, with their own revision ids and the source revision they were made from. Everything
 * else (category, type, images, parts, flags, step order, bullets and levels) is the guide's, shared
 * by every language: `applyTo` lays the translation over the guide, and what is not translated
 * shows the source's text.
 */
export class GuideTranslation {
  private readonly current: Mutable<GuideTranslationState>;
  private changed = false;
  private readonly changedStepIds = new Set<number>();
  private lastEditorId: number | null = null;
  private changeSummary: string | null = null;
  private translatorCounts: readonly GuideContributor[];

  private constructor(state: GuideTranslationState, translators: readonly GuideContributor[]) {
    this.current = { ...state, steps: { ...state.steps }, contributorIds: [...state.contributorIds] };
    this.translatorCounts = [...translators];
  }

  /**
   * `translators`: the editors of its stored revisions, as read with it (each with how many they
   * saved and the first of them): not content, never part of a revision.
   */
  static restore(state: GuideTranslationState, translators: readonly GuideContributor[] = []): GuideTranslation {
    return new GuideTranslation(state, translators);
  }

  /** A new, empty translation of `guide` into `langid`, made from `sourceRevisionid` (stored on save). */
  static start(guide: Guide, langid: string, editor: Editor, sourceRevisionid: number, now: Date): GuideTranslation {
    if (langid === guide.state.locale) throw new InvalidGuideError([{ field: 'langid', message: `the guide is written in '${langid}': edit it without langid` }]);
    const translation = new GuideTranslation({
      guideId: guide.id,
      langid,
      revisionid: 0,
      sourceRevisionid,
      title: null,
      subject: null,
      summary: null,
      introduction: null,
      conclusion: null,
      steps: {},
      contributorIds: [editor.userId],
      createdAt: now,
      modifiedAt: now,
    }, []);
    translation.touch(editor, now);
    return translation;
  }

  get state(): GuideTranslationState {
    return this.current;
  }

  get hasChanges(): boolean {
    return this.changed;
  }

  get isNew(): boolean {
    return this.current.revisionid === 0;
  }

  /** The steps whose translation changed since it was loaded (they get new revision ids on save). */
  get stepIdsChanged(): readonly number[] {
    return [...this.changedStepIds];
  }

  /** The editors of its stored revisions (a save counts its editor): what bodies list as `translators`. */
  get translators(): readonly GuideContributor[] {
    return this.translatorCounts;
  }

  get editedBy(): number {
    return this.lastEditorId ?? this.current.contributorIds[0] ?? 0;
  }

  get summaryOfChange(): string | null {
    return this.changeSummary;
  }

  describeChange(summary: string | null): void {
    this.changeSummary = summary;
  }

  assertRevision(revisionid: number): void {
    if (revisionid !== this.current.revisionid) throw new StaleGuideTranslationError(this.current.guideId, this.current.langid);
  }

  /** The revision id a step shows in this language: its translation's, or the source step's when untranslated. */
  stepRevision(step: Pick<StepState, 'id' | 'revisionid'>): number {
    return this.current.steps[step.id]?.revisionid ?? step.revisionid;
  }

  /** Marks the translation as made from another revision of the source (checked by the caller to be one). */
  resync(editor: Editor, sourceRevisionid: number, now: Date): void {
    if (sourceRevisionid === this.current.sourceRevisionid) return;
    this.current.sourceRevisionid = sourceRevisionid;
    this.touch(editor, now);
  }

  /**
   * Applies the translated fields that are present (null or '' clears one: the source's text shows
   * again). Fields every language shares are refused (422), as are unknown ones; `langid`,
   * `source_revisionid` and `summary_of_change` are the caller's.
   */
  edit(editor: Editor, input: GuideTranslationInput, now: Date): void {
    const violations: Violation[] = [];
    const patch: Partial<Record<TranslatedField, string | null>> = {};
    for (const [field, value] of Object.entries(input)) {
      if (value === undefined || field === 'langid' || field === 'source_revisionid' || field === 'summary_of_change') continue;
      if ((SHARED_FIELDS as readonly string[]).includes(field)) {
        violations.push({ field, message: `${field} is shared by every language: edit it without langid` });
        continue;
      }
      if (!(TRANSLATED_FIELDS as readonly string[]).includes(field)) {
        violations.push({ field, message: `unknown field '${field}'` });
        continue;
      }
      const key = field as TranslatedField;
      const text = readText(key, value, violations);
      if (text !== undefined) patch[key] = text;
    }
    if (violations.length) throw new InvalidGuideError(violations);
    const changed = (Object.keys(patch) as TranslatedField[]).filter((key) => patch[key] !== this.current[key]);
    if (!changed.length) return;
    for (const key of changed) this.current[key] = patch[key]!;
    this.touch(editor, now);
  }

  /**
   * A step's title and line texts in this language. `revisionid` is the step's as this language
   * shows it (see `stepRevision`); `lines` has one line per line of the source step, in order (a
   * string or `{text}`; bullets, levels and line ids are the source's, accepted and ignored);
   * media and positions are shared (422).
   */
  editStep(editor: Editor, step: Step, revisionid: number, input: Readonly<Record<string, unknown>>, now: Date): void {
    if (revisionid !== this.stepRevision(step)) throw new StaleStepRevisionError(this.current.guideId, step.id, this.current.langid);
    const violations: Violation[] = [];
    const before = this.current.steps[step.id];
    let title = before?.title ?? null;
    let lines: (string | null)[] = [...(before?.lines ?? [])];
    for (const [field, value] of Object.entries(input)) {
      if (value === undefined || field === 'summary_of_change') continue;
      if (field === 'title') {
        const text = readText('title', value, violations);
        if (text !== undefined) title = text;
      } else if (field === 'lines') {
        const read = readLines(value, step, violations);
        if (read) lines = read;
      } else if (field === 'media' || field === 'orderby') {
        violations.push({ field, message: `${field} is shared by every language: edit it without langid` });
      } else violations.push({ field, message: `unknown field '${field}'` });
    }
    if (violations.length) throw new InvalidGuideError(violations);
    while (lines.length && lines[lines.length - 1] === null) lines.pop();
    if (canonicalJson({ title, lines }) === canonicalJson({ title: before?.title ?? null, lines: before?.lines ?? [] })) return;
    this.current.steps = { ...this.current.steps, [step.id]: { revisionid: before?.revisionid ?? step.revisionid, title, lines } };
    this.changedStepIds.add(step.id);
    this.touch(editor, now);
  }

  /**
   * The guide as this language shows it: the translated texts over the guide's (the source's where
   * untranslated), the translation's revision id and language; modified when either last changed;
   * its translators in place of the guide's (the guide's contributors and counts stay).
   */
  applyTo(guide: Guide): Guide {
    const t = this.current;
    const s = guide.state;
    const text = (key: TranslatedField): string => t[key] ?? s[key];
    const state: GuideState = {
      ...s,
      title: text('title'),
      subject: text('subject'),
      summary: text('summary'),
      introduction: text('introduction'),
      conclusion: text('conclusion'),
      revisionid: t.revisionid,
      locale: t.langid,
      modifiedAt: t.modifiedAt > s.modifiedAt ? t.modifiedAt : s.modifiedAt,
    };
    // Its languages keep the source's own (the state now names the translation's).
    const statistics = { ...guide.statistics, translators: this.translatorCounts };
    return Guide.restore(state, guide.steps.map((step) => this.stepIn(step.toState())), guide.access, statistics, guide.availableLangids);
  }

  /** A source step as this language shows it. */
  stepIn(step: StepState): StepState {
    const translated = this.current.steps[step.id];
    if (!translated) return step;
    return {
      ...step,
      revisionid: translated.revisionid,
      title: translated.title ?? step.title,
      lines: step.lines.map((line, i) => ({ ...line, text: translated.lines[i] ?? line.text })),
    };
  }

  /** After the repository stored it: the translation's new revision id, and each changed step's. */
  markStored(revisionid: number, stepRevisions: ReadonlyMap<number, number>): void {
    this.translatorCounts = withRevision(this.translatorCounts, this.editedBy, revisionid);
    this.current.revisionid = revisionid;
    for (const [stepId, rev] of stepRevisions) {
      const step = this.current.steps[stepId];
      if (step) this.current.steps = { ...this.current.steps, [stepId]: { ...step, revisionid: rev } };
    }
    this.changed = false;
    this.changedStepIds.clear();
    this.changeSummary = null;
  }

  private touch(editor: Editor, now: Date): void {
    this.changed = true;
    this.lastEditorId = editor.userId;
    this.current.modifiedAt = now;
    if (!this.current.contributorIds.includes(editor.userId)) this.current.contributorIds = [...this.current.contributorIds, editor.userId];
  }
}

const LIMITS: Record<TranslatedField, { max: number; trim: boolean }> = {
  title: { max: MAX_TITLE_LENGTH, trim: true },
  subject: { max: MAX_TITLE_LENGTH, trim: true },
  summary: { max: MAX_SUMMARY_LENGTH, trim: false },
  introduction: { max: MAX_TEXT_LENGTH, trim: false },
  conclusion: { max: MAX_TEXT_LENGTH, trim: false },
};

/** A translated text: a string within the field's limit; null or '' (blank for one-line fields) is none. */
function readText(field: TranslatedField, value: unknown, violations: Violation[]): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== 'string') return void violations.push({ field, message: `${field} must be a string or null` });
  const { max, trim } = LIMITS[field];
  const kept = trim ? value.trim() : value;
  if ([...kept].length > max) return void violations.push({ field, message: `${field} must be at most ${max} characters` });
  return kept === '' ? null : kept;
}

/** A step's translated lines: one per source line, each a non-empty string (or `{text}`), at most 350 characters. */
function readLines(raw: unknown, step: Step, violations: Violation[]): (string | null)[] | undefined {
  if (!Array.isArray(raw) || raw.length !== step.lines.length) {
    return void violations.push({ field: 'lines', message: `lines must list one text for each of the step's ${step.lines.length} lines, in order` });
  }
  const out: (string | null)[] = [];
  const known = new Set(['text', 'text_raw', 'bullet', 'level', 'lineid']);
  raw.forEach((item: unknown, index) => {
    const fail = (message: string) => violations.push({ field: 'lines', message, index });
    let text: unknown = item;
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const unknown = Object.keys(item).find((k) => !known.has(k));
      if (unknown) return void fail(`unknown line field '${unknown}'`);
      text = (item as Record<string, unknown>)['text'] ?? (item as Record<string, unknown>)['text_raw'];
    }
    if (text === null) return void out.push(null);
    if (typeof text !== 'string' || !text.trim()) return void fail('line text must be a non-empty string');
    if ([...text].length > MAX_LINE_LENGTH) return void fail(`line text must be at most ${MAX_LINE_LENGTH} characters`);
    out.push(text);
  });
  return violations.some((v) => v.field === 'lines') ? undefined : out;
}
