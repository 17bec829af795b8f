import { checkChangeSummary, isId, type Brand, type Violation } from '@rc/shared-kernel';
import { InvalidWikiError, StaleWikiRevisionError, WikiEditorRequiredError } from '../catalog.errors.js';
import { keepScheduleIds, NO_DETAILS, readDetails, type WikiDetails } from './wiki-details.js';

export const NAMESPACES = ['CATEGORY', 'WIKI', 'INFO', 'ITEM', 'USER', 'TEAM'] as const;
export type Namespace = (typeof NAMESPACES)[number];
export type WikiId = Brand<number, 'WikiId'>;

export interface InfoRow {
  readonly name: string;
  readonly value: string;
}

/** Another page, named by namespace and title (how related pages are kept: they follow a title, not an id). */
export interface WikiRef {
  readonly namespace: Namespace;
  readonly title: string;
}

export interface WikiState {
  readonly id: WikiId;
  readonly namespace: Namespace;
  readonly title: string;
  readonly displayTitle: string;
  /** CATEGORY pages: the parent category (the tree). */
  readonly parentId: number | null;
  readonly description: string;
  readonly contents: string;
  readonly imageId: number | null;
  readonly flags: readonly string[];
  readonly info: readonly InfoRow[];
  /** Related pages, in the order the editor gave them; kept with every revision. */
  readonly related: readonly WikiRef[];
  readonly details: WikiDetails;
  readonly revisionid: number;
  readonly authorId: number;
  readonly langid: string;
  readonly createdAt: Date;
  readonly modifiedAt: Date;
  readonly deletedAt: Date | null;
}

/** Writable fields as a client sends them (write names: `contents`, not `contents_raw`). */
export interface WikiInput {
  readonly namespace?: unknown;
  readonly title?: unknown;
  readonly contents?: unknown;
  readonly display_title?: unknown;
  readonly description?: unknown;
  readonly image?: unknown;
  readonly flags?: unknown;
  readonly info?: unknown;
  /** CATEGORY only: the title of the parent category (`null` = a root). */
  readonly parent?: unknown;
  /**
   * Related pages, a full replacement: titles (of the page's own namespace) or `{namespace, title}`
   * objects. The use cases check that newly named pages exist.
   */
  readonly related?: unknown;
  readonly page_title?: unknown;
  /** CATEGORY only: an integer from 0 to 10, or null. */
  readonly repairability_score?: unknown;
  readonly source_revisionid?: unknown;
  /** ITEM only: `[{"part_#", type, supplier, url}]`, a full replacement. */
  readonly suppliers?: unknown;
  /** CATEGORY only: document ids (or `{documentid}` objects), a full replacement. */
  readonly documents?: unknown;
  /** CATEGORY only: the maintenance tasks, a full replacement. */
  readonly maintenance_schedule?: unknown;
  readonly table_of_contents?: unknown;
}

export interface WikiEditor {
  readonly userId: number;
  readonly isAdmin: boolean;
}

const MAX_TITLE = 255;
const MAX_DESCRIPTION = 2000;
const MAX_CONTENTS = 262_144;
export const MAX_RELATED = 50;
// A title becomes a URL segment: no path, query or fragment characters, no markup brackets.
// eslint-disable-next-line no-control-regex
const BAD_TITLE = /[/#?%<>[\]{}|\\\u0000-\u001f\u007f]/;

/** Titles are stored with spaces; URLs carry them with underscores. */
export function normaliseTitle(value: string): string {
  return value.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
}

export function checkTitle(value: unknown): { title?: string; problem?: string } {
  if (typeof value !== 'string') return { problem: 'title must be a string' };
  const title = normaliseTitle(value);
  if (!title) return { problem: 'title is required' };
  if ([...title].length > MAX_TITLE) return { problem: `title must be at most ${MAX_TITLE} characters` };
  if (BAD_TITLE.test(title)) return { problem: 'title may not contain / # ? % < > [ ] { } | \\ or control characters' };
  return { title };
}

/** A write's `summary_of_change` (shown in the history), checked: none, or a line of at most 255 characters; otherwise a 422. */
export function readWikiChangeSummary(value: unknown): string | null {
  const { summary, problem } = checkChangeSummary(value);
  if (problem) throw new InvalidWikiError([{ field: 'summary_of_change', message: problem }]);
  return summary ?? null;
}

/**
 * A page of one of the wiki namespaces. Categories are CATEGORY pages, and form a tree through
 * their parent. Every change is a new revision (the repository stores a snapshot of each).
 */
export class WikiPage {
  readonly state: WikiState;
  private changed = false;
  private lastEditor: number | null = null;
  private changeSummary: string | null = null;

  /** The languages of the page's translations (its own, `state.langid`, aside): not part of any revision. */
  readonly languages: readonly string[];

  private constructor(state: WikiState, languages: readonly string[] = []) {
    this.state = { ...state };
    this.languages = languages;
  }

  static restore(state: WikiState, languages: readonly string[] = []): WikiPage {
    return new WikiPage(state, languages);
  }

  /** Every language the page exists in: its own and its translations', in alphabetical order. */
  get availableLangids(): string[] {
    return [...new Set([this.state.langid, ...this.languages])].sort();
  }

  /** `parentId` has been resolved from `input.parent` by the caller (it checks the parent exists). */
  static create(id: WikiId, editor: WikiEditor, input: WikiInput, parentId: number | null, now: Date): WikiPage {
    if (!editor.isAdmin) throw new WikiEditorRequiredError();
    const violations: Violation[] = [];
    const namespace = NAMESPACES.find((n) => n === input.namespace);
    if (!namespace) violations.push({ field: 'namespace', message: `namespace must be one of ${NAMESPACES.join(', ')}` });
    const { title, problem } = checkTitle(input.title);
    if (problem) violations.push({ field: 'title', message: problem });
    if (input.parent !== undefined && input.parent !== null && namespace !== 'CATEGORY') violations.push({ field: 'parent', message: 'only CATEGORY pages have a parent' });
    if (title && (namespace === 'USER' || namespace === 'TEAM') && !/^[1-9]\d{0,9}$/.test(title)) {
      violations.push({ field: 'title', message: `a ${namespace} page is titled by the ${namespace === 'USER' ? 'user' : 'team'} id` });
    }
    const fields = readFields(input, violations, namespace);
    if (namespace && title && fields.related?.some((r) => r.namespace === namespace && r.title === title)) violations.push({ field: 'related', message: 'a page cannot be related to itself' });
    if (violations.length) throw new InvalidWikiError(violations);
    const page = new WikiPage({
      id,
      namespace: namespace!,
      title: title!,
      displayTitle: fields.displayTitle || title!,
      parentId: namespace === 'CATEGORY' ? parentId : null,
      description: fields.description ?? '',
      contents: fields.contents ?? '',
      imageId: fields.imageId ?? null,
      flags: fields.flags ?? [],
      info: fields.info ?? [],
      related: fields.related ?? [],
      details: { ...NO_DETAILS, ...fields.details, maintenanceSchedule: keepScheduleIds(fields.details.maintenanceSchedule ?? [], []) },
      revisionid: 0,
      authorId: editor.userId,
      langid: 'en',
      createdAt: now,
      modifiedAt: now,
      deletedAt: null,
    });
    page.changed = true;
    page.lastEditor = editor.userId;
    return page;
  }

  get id(): WikiId {
    return this.state.id;
  }

  get isDeleted(): boolean {
    return this.state.deletedAt !== null;
  }

  get hasChanges(): boolean {
    return this.changed;
  }

  /** The summary of the pending change, stored with its revision. */
  get summaryOfChange(): string | null {
    return this.changeSummary;
  }

  /** Records the editor's summary of the pending change (checked by `readWikiChangeSummary`). */
  describeChange(summary: string | null): void {
    this.changeSummary = summary;
  }

  get editedBy(): number {
    return this.lastEditor ?? this.state.authorId;
  }

  canEdit(editor: WikiEditor | null): boolean {
    return !!editor?.isAdmin && !this.isDeleted;
  }

  assertRevision(revisionid: number): void {
    if (revisionid !== this.state.revisionid) throw new StaleWikiRevisionError(this.state.namespace, this.state.title);
  }

  /** PATCH. `parentId` is the resolved `input.parent` when present (cycle checked by the caller). */
  edit(editor: WikiEditor, input: WikiInput, parentId: number | null | undefined, now: Date): void {
    this.assertEditor(editor);
    const violations: Violation[] = [];
    if (input.parent !== undefined && this.state.namespace !== 'CATEGORY') violations.push({ field: 'parent', message: 'only CATEGORY pages have a parent' });
    if (parentId === this.id) violations.push({ field: 'parent', message: 'a category cannot be its own parent' });
    const fields = readFields(input, violations, this.state.namespace);
    if (fields.related?.some((r) => r.namespace === this.state.namespace && r.title === this.state.title)) violations.push({ field: 'related', message: 'a page cannot be related to itself' });
    if (violations.length) throw new InvalidWikiError(violations);
    const next: Partial<WikiState> = {
      ...(fields.displayTitle !== undefined ? { displayTitle: fields.displayTitle || this.state.title } : {}),
      ...(fields.description !== undefined ? { description: fields.description } : {}),
      ...(fields.contents !== undefined ? { contents: fields.contents } : {}),
      ...(fields.imageId !== undefined ? { imageId: fields.imageId } : {}),
      ...(fields.flags !== undefined ? { flags: fields.flags } : {}),
      ...(fields.info !== undefined ? { info: fields.info } : {}),
      ...(fields.related !== undefined ? { related: fields.related } : {}),
      ...(parentId !== undefined ? { parentId } : {}),
      ...(Object.keys(fields.details).length ? { details: { ...this.state.details, ...fields.details, maintenanceSchedule: fields.details.maintenanceSchedule ? keepScheduleIds(fields.details.maintenanceSchedule, this.state.details.maintenanceSchedule) : this.state.details.maintenanceSchedule } } : {}),
    };
    // Canonical JSON: values read back from jsonb may carry their keys in another order.
    const changed = (Object.keys(next) as (keyof WikiState)[]).filter((k) => canonicalJson(next[k]) !== canonicalJson(this.state[k]));
    if (!changed.length) return;
    this.apply(editor, Object.fromEntries(changed.map((k) => [k, next[k]])), now);
  }

  delete(editor: WikiEditor, now: Date): void {
    this.assertEditor(editor);
    this.apply(editor, { deletedAt: now }, now);
  }

  /** Restores the content of an older revision as a new revision (the tree position stays). */
  revertTo(editor: WikiEditor, old: WikiState, now: Date): void {
    this.assertEditor(editor);
    const { displayTitle, description, contents, imageId, flags, info, related, details } = old;
    this.apply(editor, { displayTitle, description, contents, imageId, flags, info, related, details }, now);
  }

  markStored(revisionid: number): void {
    Object.assign(this.state, { revisionid });
    this.changed = false;
    this.changeSummary = null;
  }

  private assertEditor(editor: WikiEditor): void {
    if (!this.canEdit(editor)) throw new WikiEditorRequiredError();
  }

  private apply(editor: WikiEditor, patch: Partial<WikiState>, now: Date): void {
    Object.assign(this.state, patch, { modifiedAt: now });
    this.changed = true;
    this.lastEditor = editor.userId;
  }
}

/** JSON with object keys sorted, for comparing values whatever order their keys were built in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The `related` write field: at most MAX_RELATED pages, each a title (a page of `own` namespace) or
 * a `{namespace, title}` object; titles are normalised like page titles, repeats dropped.
 */
function readRelated(raw: unknown, own: Namespace | undefined, violations: Violation[]): WikiRef[] | undefined {
  if (raw === null) return [];
  if (!Array.isArray(raw) || raw.length > MAX_RELATED) return void violations.push({ field: 'related', message: `related must be a list of at most ${MAX_RELATED} page titles` });
  const out: WikiRef[] = [];
  let ok = true;
  raw.forEach((item: unknown, index) => {
    const fail = (message: string) => {
      ok = false;
      violations.push({ field: 'related', message, index });
    };
    let namespace: Namespace | undefined = own;
    let rawTitle: unknown = item;
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const o = item as Record<string, unknown>;
      const unknownKey = Object.keys(o).find((k) => k !== 'namespace' && k !== 'title');
      if (unknownKey) return fail(`unknown field '${unknownKey}'`);
      namespace = NAMESPACES.find((n) => typeof o['namespace'] === 'string' && n === o['namespace'].toUpperCase());
      if (!namespace) return fail(`namespace must be one of ${NAMESPACES.join(', ')}`);
      rawTitle = o['title'];
    } else if (typeof item !== 'string') {
      return fail('each related page is a title or a {namespace, title} object');
    }
    const { title, problem } = checkTitle(rawTitle);
    if (problem) return fail(problem);
    if (!namespace) return; // the page's own namespace is invalid: reported already
    if (!out.some((r) => r.namespace === namespace && r.title === title)) out.push({ namespace, title: title! });
  });
  return ok ? out : undefined;
}

function readFields(input: WikiInput, violations: Violation[], namespace: Namespace | undefined) {
  const out: { displayTitle?: string; description?: string; contents?: string; imageId?: number | null; flags?: string[]; info?: InfoRow[]; related?: WikiRef[]; details: Partial<WikiDetails> } = {
    details: readDetails(input, violations, namespace),
  };
  const text = (field: string, value: unknown, max: number): string | undefined => {
    if (value === undefined) return undefined;
    if (value === null) return '';
    if (typeof value !== 'string') return void violations.push({ field, message: `${field} must be a string` });
    if ([...value].length > max) return void violations.push({ field, message: `${field} must be at most ${max} characters` });
    return value;
  };
  const display = text('display_title', input.display_title, MAX_TITLE);
  if (display !== undefined) out.displayTitle = display.trim();
  const description = text('description', input.description, MAX_DESCRIPTION);
  if (description !== undefined) out.description = description;
  const contents = text('contents', input.contents, MAX_CONTENTS);
  if (contents !== undefined) out.contents = contents;
  if (input.image !== undefined) {
    if (input.image === null) out.imageId = null;
    else if (!isId(input.image)) violations.push({ field: 'image', message: 'image must be an image id or null' });
    else out.imageId = input.image as number;
  }
  if (input.flags !== undefined) {
    if (!Array.isArray(input.flags) || !input.flags.every((f) => typeof f === 'string' && /^[A-Z_]{1,64}$/.test(f))) violations.push({ field: 'flags', message: 'flags must be a list of flag ids' });
    else out.flags = [...new Set(input.flags as string[])];
  }
  if (input.info !== undefined) {
    const rows = input.info;
    const valid =
      Array.isArray(rows) &&
      rows.length <= 50 &&
      rows.every((r) => r && typeof r === 'object' && typeof (r as InfoRow).name === 'string' && typeof (r as InfoRow).value === 'string' && Object.keys(r).every((k) => k === 'name' || k === 'value'));
    if (!valid) violations.push({ field: 'info', message: 'info must be a list of at most 50 {name, value} rows' });
    else out.info = (rows as InfoRow[]).map((r) => ({ name: r.name.slice(0, 255), value: r.value.slice(0, 2000) }));
  }
  if (input.related !== undefined) {
    const related = readRelated(input.related, namespace, violations);
    if (related) out.related = related;
  }
  return out;
}
