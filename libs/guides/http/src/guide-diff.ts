import type { GuideSnapshot, GuideState, Line, StepMedia, StepState } from '@rc/guides-domain';
import { applyRuns, itemRuns, lineRuns, unifiedDiff, type LineRun } from '@rc/shared-http';

/** The fields a diff compares, by their write names, and where each lives in the state. */
const FIELDS = {
  title: 'title',
  category: 'category',
  subject: 'subject',
  type: 'type',
  difficulty: 'difficulty',
  summary: 'summary',
  introduction: 'introduction',
  conclusion: 'conclusion',
  time_required_min: 'timeRequiredMin',
  time_required_max: 'timeRequiredMax',
  image: 'imageId',
  parts: 'parts',
  tools: 'tools',
  prerequisites: 'prerequisites',
  flags: 'flags',
  documents: 'documentIds',
  featured_documentid: 'featuredDocumentId',
  objectid: 'introObjectId',
  public: 'isPublic',
} as const satisfies Record<string, keyof GuideState>;

export type GuideFieldName = keyof typeof FIELDS;
/** Markup fields: their changes also come line by line. */
const TEXT_FIELDS: readonly GuideFieldName[] = ['summary', 'introduction', 'conclusion'];

/** What a diff is about: a guide's fields and its steps, without revision ids and dates. */
export interface GuideContent {
  readonly fields: Readonly<Record<GuideFieldName, unknown>>;
  readonly steps: readonly StepContent[];
}

export interface StepContent {
  readonly stepid: number;
  readonly orderby: number;
  readonly title: string;
  readonly lines: readonly Line[];
  readonly media: StepMedia;
}

export interface FieldChange {
  readonly field: GuideFieldName;
  readonly from: unknown;
  readonly to: unknown;
  /** Markup fields: the line-level changes. */
  readonly lines?: LineRun[];
}

export interface StepEdit {
  readonly stepid: number;
  readonly orderby: number;
  readonly title?: { readonly from: string; readonly to: string };
  readonly media?: { readonly from: StepMedia; readonly to: StepMedia };
  /** The step's lines, changed line by line (absent when its lines are the same). */
  readonly lines?: LineRun<Line>[];
}

/** The structured difference between two revisions of a guide. */
export interface GuideDiff {
  readonly fields: FieldChange[];
  readonly steps: {
    /** Steps only in the newer revision, with their position there. */
    readonly added: StepContent[];
    /** Steps only in the older revision. */
    readonly removed: { readonly stepid: number; readonly orderby: number; readonly title: string }[];
    /** Steps whose place among the kept steps changed (the fewest that explain the new order). */
    readonly moved: { readonly stepid: number; readonly from_orderby: number; readonly to_orderby: number }[];
    /** Steps in both whose title, lines or media changed. */
    readonly edited: StepEdit[];
  };
}

const json = (value: unknown): string => JSON.stringify(value);
const sameLine = (a: Line, b: Line): boolean => a.text === b.text && a.bullet === b.bullet && a.level === b.level && a.lineid === b.lineid;

export function guideContentOf(snapshot: GuideSnapshot): GuideContent {
  const fields = Object.fromEntries(Object.entries(FIELDS).map(([name, key]) => [name, snapshot.state[key]])) as Record<GuideFieldName, unknown>;
  const steps = [...snapshot.steps]
    .sort((a, b) => a.orderby - b.orderby)
    .map((s: StepState) => ({ stepid: s.id, orderby: s.orderby, title: s.title, lines: s.lines, media: s.media }));
  return { fields, steps };
}

/** The ids of a longest common subsequence of two id lists (the kept steps that did not move). */
function unmoved(from: readonly number[], to: readonly number[]): Set<number> {
  const kept = new Set<number>();
  for (const run of itemRuns(from, to, (a, b) => a === b)) if (run.type === 'context') run.lines.forEach((id) => kept.add(id));
  return kept;
}

/** What changed from `a` to `b`: fields, and steps added, removed, moved and edited. */
export function diffGuideContent(a: GuideContent, b: GuideContent): GuideDiff {
  const fields: FieldChange[] = [];
  for (const name of Object.keys(FIELDS) as GuideFieldName[]) {
    const from = a.fields[name];
    const to = b.fields[name];
    if (json(from) === json(to)) continue;
    fields.push(TEXT_FIELDS.includes(name) ? { field: name, from, to, lines: lineRuns(String(from ?? ''), String(to ?? '')) } : { field: name, from, to });
  }
  const before = new Map(a.steps.map((s) => [s.stepid, s]));
  const after = new Map(b.steps.map((s) => [s.stepid, s]));
  const keptFrom = a.steps.filter((s) => after.has(s.stepid)).map((s) => s.stepid);
  const keptTo = b.steps.filter((s) => before.has(s.stepid)).map((s) => s.stepid);
  const inPlace = unmoved(keptFrom, keptTo);
  const edited: StepEdit[] = [];
  for (const step of b.steps) {
    const old = before.get(step.stepid);
    if (!old) continue;
    const edit: { -readonly [K in keyof StepEdit]: StepEdit[K] } = { stepid: step.stepid, orderby: step.orderby };
    if (old.title !== step.title) edit.title = { from: old.title, to: step.title };
    if (json(old.media) !== json(step.media)) edit.media = { from: old.media, to: step.media };
    if (json(old.lines) !== json(step.lines)) edit.lines = itemRuns(old.lines, step.lines, sameLine);
    if (edit.title || edit.media || edit.lines) edited.push(edit);
  }
  return {
    fields,
    steps: {
      added: b.steps.filter((s) => !before.has(s.stepid)),
      removed: a.steps.filter((s) => !after.has(s.stepid)).map((s) => ({ stepid: s.stepid, orderby: s.orderby, title: s.title })),
      moved: keptTo.filter((id) => !inPlace.has(id)).map((id) => ({ stepid: id, from_orderby: before.get(id)!.orderby, to_orderby: after.get(id)!.orderby })),
      edited,
    },
  };
}

/**
 * Applies a diff to the content it was made from: gives the content it was made to. (What the
 * structured diff claims is checked by this: a property test applies diffs of random edits.)
 */
export function applyGuideDiff(a: GuideContent, diff: GuideDiff): GuideContent {
  const fields = { ...a.fields };
  for (const change of diff.fields) fields[change.field] = change.lines ? applyRuns(change.lines).join('\n') : change.to;
  const removed = new Set(diff.steps.removed.map((s) => s.stepid));
  const edits = new Map(diff.steps.edited.map((e) => [e.stepid, e]));
  const edit = (step: StepContent): StepContent => {
    const e = edits.get(step.stepid);
    if (!e) return step;
    return { ...step, title: e.title?.to ?? step.title, media: e.media?.to ?? step.media, lines: e.lines ? applyRuns(e.lines) : step.lines };
  };
  const count = a.steps.length - removed.size + diff.steps.added.length;
  const slots: (StepContent | undefined)[] = new Array(count).fill(undefined);
  const placed = new Set<number>();
  for (const step of diff.steps.added) slots[step.orderby - 1] = step;
  for (const move of diff.steps.moved) {
    slots[move.to_orderby - 1] = a.steps.find((s) => s.stepid === move.stepid);
    placed.add(move.stepid);
  }
  const rest = a.steps.filter((s) => !removed.has(s.stepid) && !placed.has(s.stepid));
  for (let i = 0; i < count; i++) if (!slots[i]) slots[i] = rest.shift();
  const steps = slots.map((step, i) => ({ ...edit(step!), orderby: i + 1 }));
  return { fields, steps };
}

/** A guide as plain markup text, for a unified diff: its fields, then its steps with their lines. */
export function guideMarkup(content: GuideContent): string {
  const out: string[] = [];
  for (const name of Object.keys(FIELDS) as GuideFieldName[]) {
    if (TEXT_FIELDS.includes(name)) continue;
    const value = content.fields[name];
    out.push(`${name}: ${typeof value === 'string' ? value : json(value)}`);
  }
  const block = (name: string, text: unknown) => out.push('', `== ${name} ==`, ...String(text ?? '').split('\n'));
  block('Summary', content.fields.summary);
  block('Introduction', content.fields.introduction);
  for (const step of content.steps) {
    out.push('', `== Step ${step.orderby}${step.title ? `: ${step.title}` : ''} (stepid ${step.stepid}) ==`);
    for (const line of step.lines) out.push(`${'  '.repeat(line.level)}* [${line.bullet}] ${line.text}`);
    if (step.media.type !== 'none') out.push(`media: ${json(step.media)}`);
  }
  block('Conclusion', content.fields.conclusion);
  return `${out.join('\n')}\n`;
}

/** The diff as the API answers it: the structured changes and a unified diff of the markup. */
export function guideDiffBody(guideid: number, from: GuideSnapshot, to: GuideSnapshot) {
  const a = guideContentOf(from);
  const b = guideContentOf(to);
  const fromRev = from.state.revisionid;
  const toRev = to.state.revisionid;
  return {
    guideid,
    from_revisionid: fromRev,
    to_revisionid: toRev,
    ...diffGuideContent(a, b),
    unified: unifiedDiff(`guide/${guideid}@${fromRev}`, `guide/${guideid}@${toRev}`, guideMarkup(a), guideMarkup(b)),
  };
}
