import type { Guide, GuideId, GuideState } from '../model/guide.js';
import type { GuideContributor } from '../model/guide-statistics.js';
import type { StepState } from '../model/step.js';

export interface GuideSnapshot {
  readonly state: GuideState;
  readonly steps: readonly StepState[];
  /** The contributors up to this revision (when the repository read them with it). */
  readonly contributors?: readonly GuideContributor[];
}

/** One stored revision of a guide, as its history lists it. */
export interface GuideRevisionEntry {
  readonly revisionid: number;
  readonly date: Date;
  readonly editorId: number;
  readonly summaryOfChange: string | null;
  readonly langid: string;
}

export abstract class GuideRepository {
  abstract nextId(): Promise<GuideId>;
  /** The guide as it is now (deleted ones too: callers decide), without locking, with its statistics (contributors and counts). */
  abstract findById(id: GuideId): Promise<Guide | null>;
  /**
   * The guide, locked until the surrounding unit of work ends: writes to one guide are
   * serialised, so checking its revision and writing happen atomically.
   */
  abstract findForUpdate(id: GuideId): Promise<Guide | null>;
  /** Several guides with their steps, in the order asked, in a constant number of queries. */
  abstract findMany(ids: readonly number[]): Promise<Guide[]>;
  /**
   * Stores the changes under new revision ids (one for the guide, one for each changed step),
   * assigns ids to new steps and keeps a snapshot of the new revision. No-op when unchanged.
   */
  abstract save(guide: Guide): Promise<void>;
  /** A stored revision of a guide, or `null`. */
  abstract snapshot(id: GuideId, revisionid: number): Promise<GuideSnapshot | null>;
  /** The stored revisions of a guide, newest first, paged (one query). */
  abstract revisions(id: GuideId, page: { readonly limit: number; readonly offset: number }): Promise<GuideRevisionEntry[]>;
  /** Stores the guide's collaborators and teams as they now are (no revision: they are not content). */
  abstract saveAccess(guide: Guide): Promise<void>;
  /** Of these ids, those that are not existing, undeleted guides. */
  abstract missing(ids: readonly number[]): Promise<number[]>;
  /** Whether making `prerequisites` the prerequisites of `id` would close a cycle. */
  abstract wouldCycle(id: GuideId, prerequisites: readonly number[]): Promise<boolean>;
  /** Undeleted guides that list `id` as a prerequisite. */
  abstract dependents(id: GuideId): Promise<number[]>;
}
