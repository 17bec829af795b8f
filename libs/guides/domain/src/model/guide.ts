import { checkChangeSummary, isId, type Brand, type Violation } from '@rc/shared-kernel';
import { InvalidGuideError, NotGuideEditorError, StaleGuideRevisionError, StaleStepRevisionError, StepNotFoundError } from '../guides.errors.js';
import {
  canonicalJson,
  DIFFICULTIES,
  flagDefinition,
  GUIDE_TYPES,
  MAX_ITEMS,
  MAX_PREREQUISITES,
  MAX_STEPS,
  MAX_SUMMARY_LENGTH,
  MAX_TEXT_LENGTH,
  MAX_TITLE_LENGTH,
  type Difficulty,
  type GuideType,
} from './guide-vocabulary.js';
import { NO_STATISTICS, withRevision, type GuideStatistics } from './guide-statistics.js';
import { Step, type StepInput, type StepState } from './step.js';

export type GuideId = Brand<number, 'GuideId'>;

/** A part or tool of a guide (reference §3.7). */
export interface GuideItem {
  readonly text: string;
  readonly type: string;
  readonly quantity: number;
  readonly notes: string | null;
  readonly url: string | null;
  readonly thumbnail: string | null;
  readonly isoptional: boolean;
  readonly featured: boolean;
}

/** Who acts on a guide. */
export interface Editor {
  readonly userId: number;
  readonly isAdmin: boolean;
  /** The live teams the editor belongs to, when known (only needed for guides shared with teams). */
  readonly teamIds?: readonly number[];
}

/** Who may edit a guide besides its author and Admins: collaborators, and members of its teams. Not part of any revision. */
export interface GuideAccess {
  readonly userIds: readonly number[];
  readonly teamIds: readonly number[];
}

export const NO_ACCESS: GuideAccess = { userIds: [], teamIds: [] };

/** Who may edit a live guide: its author, and those its access lists (see {@link mayEditGuide}). */
export interface GuideEditors extends GuideAccess {
  readonly authorId: number;
}

/** Whether `editor` may edit a live guide with these editors: an Admin, its author, a collaborator, or a member of one of its teams. */
export function mayEditGuide(editors: GuideEditors, editor: Editor | null): boolean {
  if (!editor) return false;
  if (editor.isAdmin || editor.userId === editors.authorId || editors.userIds.includes(editor.userId)) return true;
  return !!editor.teamIds?.some((id) => editors.teamIds.includes(id));
}

/** Whether `viewer` may see a live guide: anyone when it is public, else those who may edit it ({@link mayEditGuide}). */
export function mayViewGuide(isPublic: boolean, editors: GuideEditors, viewer: Editor | null): boolean {
  return isPublic || mayEditGuide(editors, viewer);
}

/** Whether {@link mayEditGuide} depends on the editor's teams, which `editor` does not carry yet. */
export function editorTeamsDecide(editors: GuideEditors, editor: Editor | null): boolean {
  return !!editor && !editor.teamIds && editors.teamIds.length > 0 && !editor.isAdmin && editor.userId !== editors.authorId && !editors.userIds.includes(editor.userId);
}

/** A write's `summary_of_change` (shown in the history), checked: none, or a line of at most 255 characters; otherwise a 422. */
export function readChangeSummary(value: unknown): string | null {
  const { summary, problem } = checkChangeSummary(value);
  if (problem) throw new InvalidGuideError([{ field: 'summary_of_change', message: problem }]);
  return summary ?? null;
}

/** The content fields a revert restores (visibility, authorship and dates stay as they are). */
const REVERTED_FIELDS = [
  'title', 'category', 'subject', 'type', 'difficulty', 'summary', 'introduction', 'conclusion',
  'timeRequiredMin', 'timeRequiredMax', 'imageId', 'parts', 'tools', 'prerequisites', 'flags',
  'documentIds', 'featuredDocumentId', 'introObjectId',
] as const;

/** At most this many documents per guide. */
export const MAX_DOCUMENTS = 100;

export interface GuideState {
  readonly id: GuideId;
  readonly revisionid: number;
  readonly authorId: number;
  /** Everyone who changed the guide; only a sole author may delete it. */
  readonly contributorIds: readonly number[];
  readonly title: string;
  readonly category: string;
  readonly subject: string;
  readonly type: GuideType;
  readonly difficulty: Difficulty | null;
  readonly summary: string;
  readonly introduction: string;
  readonly conclusion: string;
  readonly timeRequiredMin: number;
  readonly timeRequiredMax: number;
  readonly imageId: number | null;
  readonly parts: readonly GuideItem[];
  readonly tools: readonly GuideItem[];
  readonly prerequisites: readonly number[];
  readonly flags: readonly string[];
  /** Media documents attached (ids, in the order given). */
  readonly documentIds: readonly number[];
  /** The featured document (a media document id), or null. */
  readonly featuredDocumentId: number | null;
  /** The intro video (`objectid`: a video of the writer's media library), or null. */
  readonly introObjectId: number | null;
  readonly isPublic: boolean;
  readonly locale: string;
  readonly createdAt: Date;
  readonly modifiedAt: Date;
  readonly publishedAt: Date | null;
  readonly deletedAt: Date | null;
}

/** The writable fields, as a client sends them (parsed JSON; checked here). */
export interface GuideInput {
  readonly title?: unknown;
  readonly category?: unknown;
  readonly subject?: unknown;
  readonly type?: unknown;
  readonly difficulty?: unknown;
  readonly summary?: unknown;
  readonly introduction?: unknown;
  readonly conclusion?: unknown;
  readonly time_required?: unknown;
  readonly time_required_min?: unknown;
  readonly time_required_max?: unknown;
  readonly image?: unknown;
  readonly flags?: unknown;
  readonly prerequisites?: unknown;
  readonly parts?: unknown;
  readonly tools?: unknown;
  readonly public?: unknown;
  readonly langid?: unknown;
  /** Media document ids (a full replacement). */
  readonly documents?: unknown;
  readonly featured_documentid?: unknown;
  /** The intro video's object id; null clears it. */
  readonly objectid?: unknown;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Fields = Mutable<Partial<Omit<GuideState, 'id' | 'revisionid' | 'authorId' | 'contributorIds' | 'createdAt' | 'modifiedAt' | 'publishedAt' | 'deletedAt' | 'locale'>>>;

/**
 * A guide with its steps. Every change goes through a method that checks the rules and records
 * that something changed: the repository then stores a new revision (a no-op keeps the old one).
 */
export class Guide {
  readonly state: GuideState;
  readonly steps: Step[];
  private changedFields = false;
  private readonly removedStepIds: number[] = [];
  private lastEditorId: number | null = null;
  private changeSummary: string | null = null;
  private editors: GuideAccess;
  /** The languages the guide is translated into (its own, `state.locale`, aside): not part of any revision. */
  readonly languages: readonly string[];
  private stats: GuideStatistics;

  private constructor(state: GuideState, steps: Step[], access: GuideAccess, statistics: GuideStatistics, languages: readonly string[]) {
    this.state = { ...state };
    this.steps = steps;
    this.editors = { userIds: [...access.userIds], teamIds: [...access.teamIds] };
    this.stats = statistics;
    this.languages = languages;
  }

  /**
   * `statistics`: what was read with the guide besides its content (contributors and counts);
   * `languages`: the languages it is translated into.
   */
  static restore(state: GuideState, steps: readonly StepState[], access: GuideAccess = NO_ACCESS, statistics: GuideStatistics = NO_STATISTICS, languages: readonly string[] = []): Guide {
    return new Guide(state, [...steps].sort((a, b) => a.orderby - b.orderby).map((s) => Step.restore(s)), access, statistics, languages);
  }

  /** Its contributors and counts as read (a stored revision counts its contributors up to it). */
  get statistics(): GuideStatistics {
    return this.stats;
  }

  /** Every language the guide exists in: its own and its translations', in alphabetical order. */
  get availableLangids(): string[] {
    return [...new Set([this.state.locale, ...this.languages])].sort();
  }

  /**
   * A new guide, private unless `public: true`. `category` and `type` are required; the title
   * defaults to one made of the type, category and subject.
   */
  static create(id: GuideId, author: Editor, input: GuideInput, now: Date): Guide {
    const violations: Violation[] = [];
    if (input.category === undefined) violations.push({ field: 'category', message: 'category is required' });
    if (input.type === undefined) violations.push({ field: 'type', message: 'type is required' });
    const fields = readFields(input, violations, author, []);
    if (violations.length) throw new InvalidGuideError(violations);
    const type = fields.type!;
    const category = fields.category!;
    const subject = fields.subject ?? '';
    const guide = new Guide(
      {
        id,
        revisionid: 0,
        authorId: author.userId,
        contributorIds: [author.userId],
        title: fields.title || defaultTitle(type, category, subject),
        category,
        subject,
        type,
        difficulty: fields.difficulty ?? null,
        summary: fields.summary ?? '',
        introduction: fields.introduction ?? '',
        conclusion: fields.conclusion ?? '',
        timeRequiredMin: fields.timeRequiredMin ?? 0,
        timeRequiredMax: fields.timeRequiredMax ?? 0,
        imageId: fields.imageId ?? null,
        parts: fields.parts ?? [],
        tools: fields.tools ?? [],
        prerequisites: fields.prerequisites ?? [],
        flags: fields.flags ?? [],
        documentIds: fields.documentIds ?? [],
        featuredDocumentId: fields.featuredDocumentId ?? null,
        introObjectId: fields.introObjectId ?? null,
        isPublic: fields.isPublic ?? false,
        locale: typeof input.langid === 'string' && /^[a-z]{2}$/.test(input.langid) ? input.langid : 'en',
        createdAt: now,
        modifiedAt: now,
        publishedAt: fields.isPublic ? now : null,
        deletedAt: null,
      },
      [],
      NO_ACCESS,
      NO_STATISTICS,
      [],
    );
    guide.changedFields = true;
    return guide;
  }

  get id(): GuideId {
    return this.state.id;
  }

  get isDeleted(): boolean {
    return this.state.deletedAt !== null;
  }

  /** Anything to store? (false after a no-op edit: the revision stays). */
  get hasChanges(): boolean {
    return this.changedFields || this.removedStepIds.length > 0 || this.steps.some((s) => s.changed);
  }

  get stepIdsRemoved(): readonly number[] {
    return this.removedStepIds;
  }

  /** Who made the pending changes (recorded with the revision). */
  get editedBy(): number {
    return this.lastEditorId ?? this.state.authorId;
  }

  /** Who may edit it besides its author and Admins (collaborator ids and team ids, each increasing). */
  get access(): GuideAccess {
    return this.editors;
  }

  /** The summary of the pending change, recorded with its revision. */
  get summaryOfChange(): string | null {
    return this.changeSummary;
  }

  /** The author, Admins, the guide's collaborators and the members of its teams may edit a guide. */
  canEdit(editor: Editor | null): boolean {
    return !this.isDeleted && mayEditGuide(this.editorList, editor);
  }

  /** Whether `canEdit` depends on the editor's teams, which `editor` does not carry yet. */
  needsTeamsOf(editor: Editor | null): boolean {
    return editorTeamsDecide(this.editorList, editor);
  }

  private get editorList(): GuideEditors {
    return { authorId: this.state.authorId, ...this.editors };
  }

  /** Only the author and Admins choose who else may edit. */
  canManageAccess(editor: Editor | null): boolean {
    return !!editor && !this.isDeleted && (editor.isAdmin || editor.userId === this.state.authorId);
  }

  /** Adds or removes a collaborator (`kind` 'user') or a team; returns whether the list changed. No revision. */
  changeAccess(editor: Editor, kind: 'user' | 'team', id: number, on: boolean): boolean {
    if (!this.canManageAccess(editor)) throw new NotGuideEditorError('Only the author or an Admin may change who edits this guide');
    const key = kind === 'user' ? 'userIds' : 'teamIds';
    const ids = this.editors[key];
    if (ids.includes(id) === on) return false;
    const next = on ? [...ids, id].sort((a, b) => a - b) : ids.filter((x) => x !== id);
    this.editors = { ...this.editors, [key]: next };
    return true;
  }

  /** Records the editor's summary of the pending change (already checked by `readChangeSummary`). */
  describeChange(summary: string | null): void {
    this.changeSummary = summary;
  }

  /** Public guides are seen by all; private ones by those who may edit them. */
  canView(viewer: Editor | null): boolean {
    return !this.isDeleted && mayViewGuide(this.state.isPublic, this.editorList, viewer);
  }

  assertRevision(revisionid: number): void {
    if (revisionid !== this.state.revisionid) throw new StaleGuideRevisionError(this.id);
  }

  /** PATCH: applies the given fields. `prerequisites` must have been checked to exist and not to loop. */
  edit(editor: Editor, input: GuideInput, now: Date): void {
    this.assertEditor(editor);
    const violations: Violation[] = [];
    const fields = readFields(input, violations, editor, this.state.flags);
    if (violations.length) throw new InvalidGuideError(violations);
    if (fields.prerequisites?.includes(this.id)) throw new InvalidGuideError([{ field: 'prerequisites', message: 'a guide cannot be its own prerequisite' }]);
    const min = fields.timeRequiredMin ?? this.state.timeRequiredMin;
    const max = fields.timeRequiredMax ?? this.state.timeRequiredMax;
    if (max > 0 && min > max) throw new InvalidGuideError([{ field: 'time_required_min', message: 'time_required_min cannot exceed time_required_max' }]);
    if (fields.title === '') delete fields.title;
    const changed = (Object.keys(fields) as (keyof Fields)[]).filter((key) => canonicalJson(fields[key]) !== canonicalJson(this.state[key]));
    if (!changed.length) return;
    const patch: Partial<GuideState> = Object.fromEntries(changed.map((key) => [key, fields[key]]));
    if (changed.includes('isPublic')) Object.assign(patch, this.publication(fields.isPublic!, now));
    this.apply(editor, patch, now);
  }

  publish(editor: Editor, now: Date): void {
    this.assertEditor(editor);
    if (!this.state.isPublic) this.apply(editor, { isPublic: true, ...this.publication(true, now) }, now);
  }

  unpublish(editor: Editor, now: Date): void {
    this.assertEditor(editor);
    if (this.state.isPublic) this.apply(editor, { isPublic: false }, now);
  }

  /** Only an Admin, or the author when nobody else contributed, may delete a guide. */
  assertDeletable(editor: Editor): void {
    this.assertEditor(editor);
    const sole = this.state.contributorIds.every((id) => id === this.state.authorId);
    if (!editor.isAdmin && !(editor.userId === this.state.authorId && sole)) {
      throw new NotGuideEditorError('Only an Admin or the sole author may delete this guide');
    }
  }

  /** Soft delete. */
  delete(editor: Editor, now: Date): void {
    this.assertDeletable(editor);
    this.apply(editor, { deletedAt: now }, now);
  }

  /** Inserts a step at `orderby` (1 … count + 1; default last); later steps move down. */
  addStep(editor: Editor, input: StepInput & { orderby?: unknown }, now: Date): Step {
    this.assertEditor(editor);
    const violations: Violation[] = [];
    const position = input.orderby === undefined ? this.steps.length + 1 : input.orderby;
    if (!Number.isInteger(position) || (position as number) < 1 || (position as number) > this.steps.length + 1) {
      violations.push({ field: 'orderby', message: `orderby must be an integer from 1 to ${this.steps.length + 1}` });
    }
    if (this.steps.length >= MAX_STEPS) violations.push({ field: 'steps', message: `a guide has at most ${MAX_STEPS} steps` });
    const step = Step.create(input, violations);
    if (violations.length || !step) throw new InvalidGuideError(violations);
    this.steps.splice((position as number) - 1, 0, step);
    this.renumber();
    this.apply(editor, {}, now);
    return step;
  }

  editStep(editor: Editor, stepId: number, stepRevisionid: number, input: StepInput, now: Date): Step {
    this.assertEditor(editor);
    const step = this.step(stepId);
    if (step.revisionid !== stepRevisionid) throw new StaleStepRevisionError(this.id, stepId);
    const violations: Violation[] = [];
    const changed = step.edit(input, violations);
    if (violations.length) throw new InvalidGuideError(violations);
    if (changed) this.apply(editor, {}, now);
    return step;
  }

  removeStep(editor: Editor, stepId: number, stepRevisionid: number, now: Date): void {
    this.assertEditor(editor);
    const step = this.step(stepId);
    if (step.revisionid !== stepRevisionid) throw new StaleStepRevisionError(this.id, stepId);
    this.steps.splice(this.steps.indexOf(step), 1);
    this.removedStepIds.push(stepId);
    this.renumber();
    this.apply(editor, {}, now);
  }

  /** `stepids` must be exactly the guide's own steps, in the new order. */
  reorderSteps(editor: Editor, stepids: unknown, now: Date): void {
    this.assertEditor(editor);
    const current = this.steps.map((s) => s.id);
    const valid =
      Array.isArray(stepids) &&
      stepids.length === current.length &&
      new Set(stepids).size === stepids.length &&
      stepids.every((id) => current.includes(id as number));
    if (!valid) throw new InvalidGuideError([{ field: 'stepids', message: 'stepids must list every step of the guide exactly once' }]);
    if (stepids.every((id, i) => id === current[i])) return;
    this.steps.sort((a, b) => stepids.indexOf(a.id) - stepids.indexOf(b.id));
    this.renumber();
    this.apply(editor, {}, now);
  }

  /**
   * Makes the content of an older revision the content of the guide, as a new revision: its fields
   * (visibility aside), and its steps with their ids, in its order (steps removed since come back).
   * Privileged flags stay as they are for editors who cannot set them. A revert to identical content is a no-op.
   */
  revertTo(editor: Editor, old: { readonly state: GuideState; readonly steps: readonly StepState[] }, now: Date): void {
    this.assertEditor(editor);
    const patch: Partial<Record<(typeof REVERTED_FIELDS)[number], unknown>> = {};
    for (const key of REVERTED_FIELDS) if (canonicalJson(old.state[key]) !== canonicalJson(this.state[key])) patch[key] = old.state[key];
    if (patch.flags && !editor.isAdmin) {
      const privileged = (flag: string) => !!flagDefinition(flag)?.privileged;
      const flags = old.state.flags.filter((f) => !privileged(f) || this.state.flags.includes(f));
      for (const kept of this.state.flags) if (privileged(kept) && !flags.includes(kept)) flags.push(kept);
      if (canonicalJson(flags) === canonicalJson(this.state.flags)) delete patch.flags;
      else patch.flags = flags;
    }
    const orderBefore = new Map(this.steps.map((s) => [s.id, s.orderby]));
    const byId = new Map(this.steps.map((s) => [s.id, s]));
    const wanted = [...old.steps].sort((a, b) => a.orderby - b.orderby);
    const keep = new Set(wanted.map((s) => s.id));
    let stepsChanged = false;
    for (const step of this.steps) {
      if (keep.has(step.id)) continue;
      this.removedStepIds.push(step.id);
      stepsChanged = true;
    }
    const steps = wanted.map((o) => {
      const existing = byId.get(o.id);
      if (existing) {
        if (existing.restoreContent(o)) stepsChanged = true;
        return existing;
      }
      const back = Step.restore({ ...o, revisionid: 0 });
      back.changed = true;
      stepsChanged = true;
      return back;
    });
    this.steps.splice(0, this.steps.length, ...steps);
    this.renumber();
    if (this.steps.some((s) => orderBefore.get(s.id) !== s.orderby)) stepsChanged = true;
    if (!stepsChanged && !Object.keys(patch).length) return;
    this.apply(editor, patch as Partial<GuideState>, now);
  }

  /** The state after the repository stored it under new revision ids. */
  markStored(revisionid: number): void {
    this.stats = { ...this.stats, contributors: withRevision(this.stats.contributors, this.editedBy, revisionid) };
    Object.assign(this.state, { revisionid });
    this.changeSummary = null;
    this.changedFields = false;
    this.removedStepIds.length = 0;
    for (const step of this.steps) step.changed = false;
  }

  step(stepId: number): Step {
    const step = this.steps.find((s) => s.id === stepId);
    if (!step) throw new StepNotFoundError();
    return step;
  }

  private assertEditor(editor: Editor): void {
    if (!this.canEdit(editor)) throw new NotGuideEditorError();
  }

  private publication(isPublic: boolean, now: Date): Partial<GuideState> {
    return isPublic && !this.state.publishedAt ? { publishedAt: now } : {};
  }

  private renumber(): void {
    this.steps.forEach((step, i) => step.moveTo(i + 1));
  }

  private apply(editor: Editor, patch: Partial<GuideState>, now: Date): void {
    const contributorIds = this.state.contributorIds.includes(editor.userId) ? this.state.contributorIds : [...this.state.contributorIds, editor.userId];
    Object.assign(this.state, patch, { modifiedAt: now, contributorIds });
    this.changedFields = true;
    this.lastEditorId = editor.userId;
  }
}

/** `iPhone 12 Battery Replacement`; how-to guides read `How to: MacBook Pro Clean the Fan`. */
function defaultTitle(type: GuideType, category: string, subject: string): string {
  const words = type === 'how-to' ? ['How to:', category, subject] : [category, subject, type.charAt(0).toUpperCase() + type.slice(1)];
  return [...words.filter(Boolean).join(' ')].slice(0, MAX_TITLE_LENGTH).join('');
}

/** Reads and checks the writable fields that are present; collects one violation per bad field. */
function readFields(input: GuideInput, violations: Violation[], editor: Editor, currentFlags: readonly string[]): Fields {
  const out: Fields = {};
  /** One-line texts are trimmed before their length is checked; markup texts are kept as sent. */
  const text = (field: string, value: unknown, max: number, trim = false): string | undefined => {
    if (value === undefined) return undefined;
    if (value === null) return '';
    if (typeof value !== 'string') return void violations.push({ field, message: `${field} must be a string` });
    const kept = trim ? value.trim() : value;
    if ([...kept].length > max) return void violations.push({ field, message: `${field} must be at most ${max} characters` });
    return kept;
  };
  const seconds = (field: string, value: unknown): number | undefined => {
    if (value === undefined) return undefined;
    if (value === null) return 0;
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 10 * 365 * 24 * 3600) return void violations.push({ field, message: `${field} must be a number of seconds` });
    return value as number;
  };

  const title = text('title', input.title, MAX_TITLE_LENGTH, true);
  if (title !== undefined) out.title = title;
  const category = text('category', input.category, MAX_TITLE_LENGTH, true);
  if (category !== undefined) {
    if (!category) violations.push({ field: 'category', message: 'category must name an existing category' });
    else out.category = category;
  }
  const subject = text('subject', input.subject, MAX_TITLE_LENGTH, true);
  if (subject !== undefined) out.subject = subject;
  if (input.type !== undefined) {
    if (typeof input.type !== 'string' || !(GUIDE_TYPES as readonly string[]).includes(input.type)) violations.push({ field: 'type', message: `type must be one of ${GUIDE_TYPES.join(', ')}` });
    else out.type = input.type as GuideType;
  }
  if (input.difficulty !== undefined) {
    if (input.difficulty === null || input.difficulty === '') out.difficulty = null;
    else if (typeof input.difficulty !== 'string' || !(DIFFICULTIES as readonly string[]).includes(input.difficulty)) violations.push({ field: 'difficulty', message: `difficulty must be one of ${DIFFICULTIES.join(', ')}` });
    else out.difficulty = input.difficulty as Difficulty;
  }
  const summary = text('summary', input.summary, MAX_SUMMARY_LENGTH);
  if (summary !== undefined) out.summary = summary;
  const introduction = text('introduction', input.introduction, MAX_TEXT_LENGTH);
  if (introduction !== undefined) out.introduction = introduction;
  const conclusion = text('conclusion', input.conclusion, MAX_TEXT_LENGTH);
  if (conclusion !== undefined) out.conclusion = conclusion;
  // time_required (the human text) is accepted and ignored, as by the original API.
  const min = seconds('time_required_min', input.time_required_min);
  const max = seconds('time_required_max', input.time_required_max);
  if (min !== undefined) out.timeRequiredMin = min;
  if (max !== undefined) out.timeRequiredMax = max;
  if (min !== undefined && max !== undefined && max > 0 && min > max) violations.push({ field: 'time_required_min', message: 'time_required_min cannot exceed time_required_max' });
  if (input.image !== undefined) {
    if (input.image === null) out.imageId = null;
    else if (!isId(input.image)) violations.push({ field: 'image', message: 'image must be an image id or null' });
    else out.imageId = input.image as number;
  }
  if (input.documents !== undefined) {
    const ids = input.documents === null ? [] : input.documents;
    if (!Array.isArray(ids) || ids.length > MAX_DOCUMENTS || !ids.every(isId)) {
      violations.push({ field: 'documents', message: `documents must be a list of at most ${MAX_DOCUMENTS} document ids` });
    } else out.documentIds = [...new Set(ids as number[])];
  }
  for (const [field, key] of [['featured_documentid', 'featuredDocumentId'], ['objectid', 'introObjectId']] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value !== null && !isId(value)) violations.push({ field, message: `${field} must be an id or null` });
    else out[key] = value as number | null;
  }
  if (input.public !== undefined) {
    if (typeof input.public !== 'boolean') violations.push({ field: 'public', message: 'public must be true or false' });
    else out.isPublic = input.public;
  }
  if (input.prerequisites !== undefined) {
    const ids = input.prerequisites;
    if (!Array.isArray(ids) || ids.length > MAX_PREREQUISITES || !ids.every(isId)) {
      violations.push({ field: 'prerequisites', message: `prerequisites must be a list of at most ${MAX_PREREQUISITES} guide ids` });
    } else out.prerequisites = [...new Set(ids as number[])];
  }
  if (input.flags !== undefined) {
    const flags = readFlags(input.flags, editor, currentFlags, violations);
    if (flags) out.flags = flags;
  }
  for (const field of ['parts', 'tools'] as const) {
    if (input[field] === undefined) continue;
    const items = readItems(field, input[field], violations);
    if (items) out[field] = items;
  }
  return out;
}

/** Flags are a full, ordered replacement; privileged flags the editor cannot touch are kept. */
function readFlags(raw: unknown, editor: Editor, current: readonly string[], violations: Violation[]): string[] | undefined {
  if (!Array.isArray(raw) || !raw.every((f) => typeof f === 'string')) return void violations.push({ field: 'flags', message: 'flags must be a list of flag ids' });
  const flags = [...new Set(raw as string[])];
  for (const flag of flags) {
    const definition = flagDefinition(flag);
    if (!definition) return void violations.push({ field: 'flags', message: `unknown flag '${flag}'` });
    if (definition.privileged && !editor.isAdmin && !current.includes(flag)) return void violations.push({ field: 'flags', message: `flag '${flag}' can only be set by an Admin` });
  }
  if (!editor.isAdmin) for (const kept of current) if (flagDefinition(kept)?.privileged && !flags.includes(kept)) flags.push(kept);
  return flags;
}

function readItems(field: string, raw: unknown, violations: Violation[]): GuideItem[] | undefined {
  if (!Array.isArray(raw) || raw.length > MAX_ITEMS) return void violations.push({ field, message: `${field} must be a list of at most ${MAX_ITEMS} items` });
  const items: GuideItem[] = [];
  const known = new Set(['name', 'text', 'type', 'quantity', 'notes', 'isoptional', 'featured', 'summary', 'url', 'thumbnail']);
  raw.forEach((item: unknown, index) => {
    const fail = (message: string) => violations.push({ field, message, index });
    if (!item || typeof item !== 'object' || Array.isArray(item)) return void fail('each item must be an object with a name');
    const o = item as Record<string, unknown>;
    const unknown = Object.keys(o).find((k) => !known.has(k));
    if (unknown) return void fail(`unknown field '${unknown}'`);
    const name = o['name'] ?? o['text'];
    if (typeof name !== 'string' || !name.trim() || [...name.trim()].length > MAX_TITLE_LENGTH) return void fail(`each item needs a name of 1 to ${MAX_TITLE_LENGTH} characters`);
    const quantity = o['quantity'] ?? 1;
    if (!Number.isInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 10_000) return void fail('quantity must be a positive integer');
    for (const key of ['type', 'notes', 'summary'] as const) if (o[key] !== undefined && o[key] !== null && (typeof o[key] !== 'string' || (o[key] as string).length > 1000)) return void fail(`${key} must be a string`);
    const url = o['url'];
    if (url !== undefined && url !== null && (typeof url !== 'string' || !/^(https?:\/\/[^\s]+|\/[^/\s][^\s]*)$/i.test(url) || url.length > 2000)) return void fail('url must be an http(s) or site-relative URL');
    for (const key of ['isoptional', 'featured'] as const) if (o[key] !== undefined && typeof o[key] !== 'boolean') return void fail(`${key} must be true or false`);
    items.push({
      text: name.trim(),
      type: (o['type'] as string | undefined) ?? '',
      quantity: quantity as number,
      notes: (o['notes'] as string | null | undefined) ?? null,
      url: (url as string | null | undefined) ?? null,
      thumbnail: null,
      isoptional: (o['isoptional'] as boolean | undefined) ?? false,
      featured: (o['featured'] as boolean | undefined) ?? false,
    });
  });
  return violations.some((v) => v.field === field) ? undefined : items;
}
