import { isId, type Violation } from '@rc/shared-kernel';
import type { Namespace, WikiInput } from './wiki-page.js';

// The fields a page keeps for compatibility with the original's writes (reference §3.10, §3.16):
// their shapes, and how a write's values are read (a violation per problem, with the row's index).

const MAX_TITLE = 255;

/** A supplier row of an ITEM page (reference §3.10 `suppliers`). */
export interface Supplier {
  readonly 'part_#': string;
  readonly type: string;
  readonly supplier: string;
  readonly url: string;
}

export const TRIGGER_TYPES = ['usage', 'time', 'condition'] as const;
export const SCHEDULE_STATUSES = ['active', 'muted', 'archived', 'done'] as const;

/** When a maintenance task is due (reference §3.16). */
export interface MaintenanceTrigger {
  readonly trigger_type: (typeof TRIGGER_TYPES)[number];
  readonly metric: string;
  readonly unit: string;
  readonly first_interval: number | null;
  readonly repeat_interval: number | null;
  readonly comparator: string | null;
  readonly threshold: number | null;
}

/** A maintenance task of a CATEGORY page; the id is the page's own numbering, kept across edits. */
export interface MaintenanceSchedule {
  readonly wiki_maintenance_scheduleid: number;
  readonly task: string;
  readonly status: (typeof SCHEDULE_STATUSES)[number];
  readonly triggers: readonly MaintenanceTrigger[];
  readonly guideid: number | null;
  readonly parts: readonly string[];
}

/** The fields kept for compatibility with the original's writes (stored as written, shown by reads). */
export interface WikiDetails {
  /** The browser/page heading title; null: the display title. */
  readonly pageTitle: string | null;
  /** CATEGORY: 0 to 10, or null. */
  readonly repairabilityScore: number | null;
  /** The revision this page was translated from (kept as written: this service has one language). */
  readonly sourceRevisionid: number | null;
  /** ITEM pages. */
  readonly suppliers: readonly Supplier[];
  /** CATEGORY: attached document ids. */
  readonly documentIds: readonly number[];
  /** CATEGORY. */
  readonly maintenanceSchedule: readonly MaintenanceSchedule[];
  readonly tableOfContents: boolean;
}

export const NO_DETAILS: WikiDetails = {
  pageTitle: null,
  repairabilityScore: null,
  sourceRevisionid: null,
  suppliers: [],
  documentIds: [],
  maintenanceSchedule: [],
  tableOfContents: false,
};

/**
 * Schedule ids: a written schedule that names one of the page's schedules keeps its id, the
 * others are numbered after the highest id the page has used.
 */
export function keepScheduleIds(written: readonly MaintenanceSchedule[], before: readonly MaintenanceSchedule[]): MaintenanceSchedule[] {
  const known = new Set(before.map((s) => s.wiki_maintenance_scheduleid));
  const kept = new Set<number>();
  let next = Math.max(0, ...before.map((s) => s.wiki_maintenance_scheduleid));
  return written.map((s) => {
    const id = s.wiki_maintenance_scheduleid;
    if (known.has(id) && !kept.has(id)) {
      kept.add(id);
      return s;
    }
    return { ...s, wiki_maintenance_scheduleid: ++next };
  });
}

const MAX_ROWS = 50;
const COMPARATORS = ['<', '<=', '=', '>=', '>'] as const;
type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => !!v && typeof v === 'object' && !Array.isArray(v);
const isEmpty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1e9;

/** A list of at most MAX_ROWS rows read by `read` (which reports its own problems, with the row's index). */
function readRows<T>(field: string, raw: unknown, violations: Violation[], read: (row: Row, fail: (message: string) => void) => T | undefined): T[] | undefined {
  if (raw === null) return [];
  if (!Array.isArray(raw) || raw.length > MAX_ROWS) return void violations.push({ field, message: `${field} must be a list of at most ${MAX_ROWS} items` });
  let ok = true;
  const out = raw.map((item: unknown, index) => {
    const fail = (message: string) => {
      ok = false;
      violations.push({ field, message, index });
    };
    if (!isRow(item)) return void fail(`each item of ${field} is an object`);
    return read(item, fail);
  });
  return ok ? (out as T[]) : undefined;
}

/** Reports the first key of `row` outside `allowed`; true when there is none. */
function onlyKeys(row: Row, allowed: readonly string[], fail: (message: string) => void): boolean {
  const unknownKey = Object.keys(row).find((k) => !allowed.includes(k));
  if (unknownKey) fail(`unknown field '${unknownKey}'`);
  return !unknownKey;
}

function readSupplier(row: Row, fail: (message: string) => void): Supplier | undefined {
  const keys = ['part_#', 'type', 'supplier', 'url'] as const;
  if (!onlyKeys(row, keys, fail)) return undefined;
  const bad = keys.find((k) => row[k] !== undefined && row[k] !== null && (typeof row[k] !== 'string' || [...(row[k] as string)].length > 255));
  if (bad) return void fail(`${bad} must be a string of at most 255 characters`);
  const url = typeof row['url'] === 'string' ? row['url'].trim() : '';
  if (url && !/^https?:\/\/[^\s<>"]+$/i.test(url)) return void fail('url must be an http(s) URL');
  const text = (k: string) => (typeof row[k] === 'string' ? (row[k] as string).trim() : '');
  if (!text('supplier')) return void fail('supplier is required');
  return { 'part_#': text('part_#'), type: text('type'), supplier: text('supplier'), url };
}

function readTrigger(raw: unknown): MaintenanceTrigger | string {
  if (!isRow(raw)) return 'each trigger is an object';
  const keys = ['trigger_type', 'metric', 'unit', 'first_interval', 'repeat_interval', 'comparator', 'threshold'];
  const unknownKey = Object.keys(raw).find((k) => !keys.includes(k));
  if (unknownKey) return `unknown trigger field '${unknownKey}'`;
  const type = TRIGGER_TYPES.find((t) => t === raw['trigger_type']);
  if (!type) return `trigger_type must be one of ${TRIGGER_TYPES.join(', ')}`;
  const short = (k: string) => (raw[k] === undefined || raw[k] === null ? '' : typeof raw[k] === 'string' && [...(raw[k] as string)].length <= 64 ? (raw[k] as string) : undefined);
  const metric = short('metric');
  const unit = short('unit');
  if (metric === undefined || unit === undefined) return 'metric and unit are strings of at most 64 characters';
  const numbers = ['first_interval', 'repeat_interval', 'threshold'].map((k) => (raw[k] === undefined || raw[k] === null ? null : isCount(raw[k]) ? (raw[k] as number) : undefined));
  if (numbers.includes(undefined)) return 'first_interval, repeat_interval and threshold are numbers from 0 to 1000000000, or null';
  const comparator = raw['comparator'] === undefined || raw['comparator'] === null ? null : COMPARATORS.find((c) => c === raw['comparator']);
  if (comparator === undefined) return `comparator must be one of ${COMPARATORS.join(' ')} or null`;
  const [first_interval, repeat_interval, threshold] = numbers as (number | null)[];
  return { trigger_type: type, metric, unit, first_interval: first_interval!, repeat_interval: repeat_interval!, comparator, threshold: threshold! };
}

function readSchedule(row: Row, fail: (message: string) => void): MaintenanceSchedule | undefined {
  if (!onlyKeys(row, ['wiki_maintenance_scheduleid', 'task', 'status', 'triggers', 'guideid', 'parts'], fail)) return undefined;
  const task = typeof row['task'] === 'string' ? row['task'].trim() : '';
  if (!task || [...task].length > 255) return void fail('task is required: 1 to 255 characters');
  const status = row['status'] === undefined ? 'active' : SCHEDULE_STATUSES.find((s) => s === row['status']);
  if (!status) return void fail(`status must be one of ${SCHEDULE_STATUSES.join(', ')}`);
  const rawTriggers = row['triggers'] ?? [];
  if (!Array.isArray(rawTriggers) || rawTriggers.length > 10) return void fail('triggers must be a list of at most 10 triggers');
  const triggers = rawTriggers.map(readTrigger);
  const problem = triggers.find((t): t is string => typeof t === 'string');
  if (problem) return void fail(problem);
  const guideid = row['guideid'] ?? null;
  if (guideid !== null && !isId(guideid)) return void fail('guideid must be a guide id or null');
  const parts = row['parts'] ?? [];
  if (!Array.isArray(parts) || parts.length > MAX_ROWS || !parts.every((p) => typeof p === 'string' && [...p].length <= 255)) return void fail(`parts must be a list of at most ${MAX_ROWS} names`);
  const id = row['wiki_maintenance_scheduleid'];
  return { wiki_maintenance_scheduleid: isId(id) ? (id as number) : 0, task, status, triggers: triggers as MaintenanceTrigger[], guideid: guideid as number | null, parts: parts as string[] };
}

/** The compatibility fields (WikiDetails) a write names; fields of another namespace are refused unless empty. */
export function readDetails(input: WikiInput, violations: Violation[], namespace: Namespace | undefined): Partial<WikiDetails> {
  const out: { -readonly [K in keyof WikiDetails]?: WikiDetails[K] } = {};
  const only = (field: string, own: Namespace, empty: boolean) => {
    if (namespace && namespace !== own && !empty) violations.push({ field, message: `${field} is for ${own} pages` });
  };
  if (input.page_title !== undefined) {
    const v = input.page_title;
    if (v !== null && (typeof v !== 'string' || [...v].length > MAX_TITLE)) violations.push({ field: 'page_title', message: `page_title must be a string of at most ${MAX_TITLE} characters, or null` });
    else out.pageTitle = typeof v === 'string' && v.trim() ? v.trim() : null;
  }
  if (input.repairability_score !== undefined) {
    const v = input.repairability_score;
    if (v !== null && !(Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 10)) violations.push({ field: 'repairability_score', message: 'repairability_score must be an integer from 0 to 10, or null' });
    else out.repairabilityScore = v as number | null;
    only('repairability_score', 'CATEGORY', v === null);
  }
  if (input.source_revisionid !== undefined) {
    const v = input.source_revisionid;
    if (v !== null && !isId(v)) violations.push({ field: 'source_revisionid', message: 'source_revisionid must be a revision id or null' });
    else out.sourceRevisionid = v as number | null;
  }
  if (input.suppliers !== undefined) {
    const rows = readRows('suppliers', input.suppliers, violations, readSupplier);
    if (rows) out.suppliers = rows;
    only('suppliers', 'ITEM', isEmpty(input.suppliers));
  }
  if (input.documents !== undefined) {
    const raw = input.documents;
    const ids = raw === null ? [] : Array.isArray(raw) && raw.length <= MAX_ROWS ? raw.map((d: unknown) => (isRow(d) && Object.keys(d).length === 1 ? d['documentid'] : d)) : undefined;
    if (!ids || !ids.every(isId)) violations.push({ field: 'documents', message: `documents must be a list of at most ${MAX_ROWS} document ids (or {documentid} objects)` });
    else out.documentIds = [...new Set(ids as number[])];
    only('documents', 'CATEGORY', isEmpty(raw));
  }
  if (input.maintenance_schedule !== undefined) {
    const rows = readRows('maintenance_schedule', input.maintenance_schedule, violations, readSchedule);
    if (rows) out.maintenanceSchedule = rows;
    only('maintenance_schedule', 'CATEGORY', isEmpty(input.maintenance_schedule));
  }
  if (input.table_of_contents !== undefined) {
    if (typeof input.table_of_contents !== 'boolean') violations.push({ field: 'table_of_contents', message: 'table_of_contents must be true or false' });
    else out.tableOfContents = input.table_of_contents;
  }
  return out;
}

