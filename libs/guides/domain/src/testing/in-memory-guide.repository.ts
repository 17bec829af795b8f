import { Guide, NO_ACCESS, type GuideAccess, type GuideId, type GuideItem, type GuideState } from '../model/guide.js';
import { NO_STATISTICS, type GuideContributor, type GuideStatistics } from '../model/guide-statistics.js';
import type { Line, StepMedia, StepState } from '../model/step.js';
import { GuideRepository, type GuideRevisionEntry, type GuideSnapshot } from '../ports/guide.repository.js';

/**
 * Guides and their steps kept in maps. Like the database it stands for, it stores copies: a
 * change to a loaded guide is visible only once it has been saved, and every read hands out a
 * fresh aggregate. `save` gives new revision ids from one increasing counter shared by every
 * guide and step (a new one for the guide, and one for each changed step), ids to new steps,
 * deletes removed steps and keeps a snapshot of each stored revision.
 */
export class InMemoryGuideRepository extends GuideRepository {
  private readonly guides = new Map<number, GuideState>();
  private readonly steps = new Map<number, StepState[]>();
  private readonly snapshots = new Map<string, GuideSnapshot>();
  private readonly history = new Map<number, GuideRevisionEntry[]>();
  private readonly access = new Map<number, GuideAccess>();
  private readonly languages = new Map<number, string[]>();
  private readonly counts = new Map<number, Partial<Omit<GuideStatistics, 'contributors'>>>();
  private lastGuideId = 0;
  private lastStepId = 0;
  private lastRevisionid = 0;

  async nextId(): Promise<GuideId> {
    this.lastGuideId += 1;
    return this.lastGuideId as GuideId;
  }

  async findById(id: GuideId): Promise<Guide | null> {
    return this.load(id);
  }

  async findMany(ids: readonly number[]): Promise<Guide[]> {
    const found: Guide[] = [];
    for (const id of ids) {
      const guide = await this.load(id as GuideId);
      if (guide) found.push(guide);
    }
    return found;
  }

  /** No concurrency in unit tests: a fresh copy, like `findById`. */
  async findForUpdate(id: GuideId): Promise<Guide | null> {
    return this.load(id);
  }

  async save(guide: Guide): Promise<void> {
    if (!guide.hasChanges) return;
    const summaryOfChange = guide.summaryOfChange;
    // Hydrating, as a repository does: ids and revision ids are written onto the steps.
    for (const step of guide.steps) {
      if (step.id === 0) Object.assign(step, { id: ++this.lastStepId });
      if (step.changed) Object.assign(step, { revisionid: ++this.lastRevisionid });
    }
    const revisionid = ++this.lastRevisionid;
    guide.markStored(revisionid);
    const state = copyGuideState(guide.state);
    const steps = guide.steps.map((s) => copyStepState(s.toState()));
    this.guides.set(guide.id, state);
    this.steps.set(guide.id, steps);
    this.snapshots.set(key(guide.id, revisionid), { state: copyGuideState(state), steps: steps.map(copyStepState) });
    const entry = { revisionid, date: new Date(state.modifiedAt), editorId: guide.editedBy, summaryOfChange, langid: state.locale };
    this.history.set(guide.id, [entry, ...(this.history.get(guide.id) ?? [])]);
  }

  async revisions(id: GuideId, page: { limit: number; offset: number }): Promise<GuideRevisionEntry[]> {
    return (this.history.get(id) ?? []).slice(page.offset, page.offset + page.limit).map((e) => ({ ...e, date: new Date(e.date) }));
  }

  async saveAccess(guide: Guide): Promise<void> {
    this.access.set(guide.id, { userIds: [...guide.access.userIds], teamIds: [...guide.access.teamIds] });
  }

  async snapshot(id: GuideId, revisionid: number): Promise<GuideSnapshot | null> {
    const snapshot = this.snapshots.get(key(id, revisionid));
    return snapshot ? { state: copyGuideState(snapshot.state), steps: snapshot.steps.map(copyStepState), contributors: this.contributors(id, revisionid) } : null;
  }

  /** Sets the counts read with a guide (views, favourites, completions), as the database keeps them. */
  setCounts(id: number, counts: Partial<Omit<GuideStatistics, 'contributors'>>): void {
    this.counts.set(id, { ...(this.counts.get(id) ?? {}), ...counts });
  }

  /** The editors of the revisions up to `upTo`, as the database counts them. */
  private contributors(id: number, upTo = Number.MAX_SAFE_INTEGER): GuideContributor[] {
    const byEditor = new Map<number, GuideContributor>();
    for (const entry of [...(this.history.get(id) ?? [])].reverse()) {
      if (entry.revisionid > upTo) continue;
      const known = byEditor.get(entry.editorId);
      byEditor.set(entry.editorId, known ? { ...known, revisions: known.revisions + 1 } : { userId: entry.editorId, revisions: 1, firstRevisionid: entry.revisionid });
    }
    return [...byEditor.values()];
  }

  async missing(ids: readonly number[]): Promise<number[]> {
    return [...new Set(ids)].filter((id) => !this.live(id)).sort((a, b) => a - b);
  }

  /** Walks the prerequisites of undeleted guides from `prerequisites`: a cycle when it reaches `id`. */
  async wouldCycle(id: GuideId, prerequisites: readonly number[]): Promise<boolean> {
    const seen = new Set<number>();
    const queue = [...prerequisites];
    while (queue.length) {
      const next = queue.shift()!;
      if (next === id) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(this.live(next)?.prerequisites ?? []));
    }
    return false;
  }

  async dependents(id: GuideId): Promise<number[]> {
    return [...this.guides.values()]
      .filter((g) => g.deletedAt === null && g.prerequisites.includes(id))
      .map((g) => g.id as number)
      .sort((a, b) => a - b);
  }

  // --- Test helpers (not part of the port) ---

  /** A translation into `langid` was stored (see InMemoryGuideTranslationRepository). */
  addLanguage(id: number, langid: string): void {
    const languages = this.languages.get(id) ?? [];
    if (!languages.includes(langid)) this.languages.set(id, [...languages, langid].sort());
  }

  /** The revision counter shared with translations (as the database's one sequence). */
  nextRevisionid(): number {
    return ++this.lastRevisionid;
  }

  /** Every stored guide, in id order. */
  all(): Guide[] {
    return [...this.guides.keys()].sort((a, b) => a - b).map((id) => this.load(id)!);
  }

  /** The revision ids stored for a guide, oldest first. */
  revisionsOf(id: number): number[] {
    return [...this.snapshots.values()]
      .filter((s) => s.state.id === id)
      .map((s) => s.state.revisionid)
      .sort((a, b) => a - b);
  }

  /** The last revision id handed out (to guides and steps alike); 0 before any save. */
  get lastRevision(): number {
    return this.lastRevisionid;
  }

  private live(id: number): GuideState | undefined {
    const state = this.guides.get(id);
    return state && state.deletedAt === null ? state : undefined;
  }

  private load(id: number): Guide | null {
    const state = this.guides.get(id);
    if (!state) return null;
    const statistics = { ...NO_STATISTICS, ...this.counts.get(id), contributors: this.contributors(id) };
    return Guide.restore(copyGuideState(state), (this.steps.get(id) ?? []).map(copyStepState), this.access.get(id) ?? NO_ACCESS, statistics, [...(this.languages.get(id) ?? [])]);
  }
}

function key(id: number, revisionid: number): string {
  return `${id}:${revisionid}`;
}

const copyDate = (date: Date | null): Date | null => (date === null ? null : new Date(date));
const copyItem = (item: GuideItem): GuideItem => ({ ...item });

function copyGuideState(state: GuideState): GuideState {
  return {
    ...state,
    contributorIds: [...state.contributorIds],
    parts: state.parts.map(copyItem),
    tools: state.tools.map(copyItem),
    prerequisites: [...state.prerequisites],
    flags: [...state.flags],
    documentIds: [...state.documentIds],
    createdAt: new Date(state.createdAt),
    modifiedAt: new Date(state.modifiedAt),
    publishedAt: copyDate(state.publishedAt),
    deletedAt: copyDate(state.deletedAt),
  };
}

function copyMedia(media: StepMedia): StepMedia {
  return media.type === 'image' ? { type: 'image', imageIds: [...media.imageIds] } : { ...media };
}

function copyStepState(step: StepState): StepState {
  return {
    id: step.id,
    orderby: step.orderby,
    revisionid: step.revisionid,
    title: step.title,
    lines: step.lines.map((line: Line) => ({ ...line })),
    media: copyMedia(step.media),
  };
}
