import { WikiPage, type Namespace, type WikiId, type WikiRef, type WikiState } from '../model/wiki-page.js';
import { WikiRepository, type WikiRevisionEntry } from '../ports/wiki.repository.js';

/** One stored revision of a page: its state as saved, who made it and when. */
export interface StoredWikiRevision {
  readonly state: WikiState;
  readonly editorId: number;
  readonly at: Date;
  readonly summaryOfChange: string | null;
}

/**
 * Wiki pages kept in maps. Like the table it stands for, it stores copies: a change to a loaded
 * page is visible only once it has been saved, and every read hands out a fresh WikiPage. `save`
 * gives a new revision id from one increasing counter shared by every page, keeps a snapshot of
 * each stored revision, and refuses (as the partial unique index does) a second live page with the
 * same namespace and title.
 */
export class InMemoryWikiRepository extends WikiRepository {
  private readonly pages = new Map<number, WikiState>();
  private readonly stored = new Map<string, StoredWikiRevision>();
  private lastId = 0;
  private lastRevisionid = 0;
  private readonly languages = new Map<number, string[]>();

  /** A translation into `langid` was stored (see InMemoryWikiTranslationRepository). */
  addLanguage(id: number, langid: string): void {
    const languages = this.languages.get(id) ?? [];
    if (!languages.includes(langid)) this.languages.set(id, [...languages, langid].sort());
  }

  /** The revision counter shared with translations (as the database's one sequence). */
  nextRevisionid(): number {
    return ++this.lastRevisionid;
  }

  async nextId(): Promise<WikiId> {
    this.lastId += 1;
    return this.lastId as WikiId;
  }

  /** The live page if there is one, otherwise the latest (highest id) deleted one; titles match exactly. */
  async findByTitle(namespace: Namespace, title: string, _forUpdate = false): Promise<WikiPage | null> {
    const matches = [...this.pages.values()].filter((s) => s.namespace === namespace && s.title === title);
    const best = matches.sort((a, b) => Number(a.deletedAt !== null) - Number(b.deletedAt !== null) || b.id - a.id)[0];
    return best ? WikiPage.restore(copyWikiState(best), [...(this.languages.get(best.id) ?? [])]) : null;
  }

  async save(page: WikiPage): Promise<void> {
    if (!page.hasChanges) return;
    const s = page.state;
    if (s.deletedAt === null) {
      const clash = [...this.pages.values()].find((o) => o.id !== s.id && o.deletedAt === null && o.namespace === s.namespace && o.title === s.title);
      if (clash) throw new Error(`Unique violation: a live ${s.namespace} page titled '${s.title}' exists (id ${clash.id})`);
    }
    if (s.parentId !== null && !this.pages.has(s.parentId)) throw new Error(`Foreign key violation: no page ${s.parentId}`);
    const revisionid = ++this.lastRevisionid;
    const editorId = page.editedBy;
    const summaryOfChange = page.summaryOfChange;
    page.markStored(revisionid);
    const state = copyWikiState(page.state);
    this.pages.set(state.id, state);
    this.stored.set(key(state.id, revisionid), { state: copyWikiState(state), editorId, at: new Date(state.modifiedAt), summaryOfChange });
  }

  async revisions(id: WikiId, page: { limit: number; offset: number }): Promise<WikiRevisionEntry[]> {
    return this.revisionsOf(id)
      .reverse()
      .slice(page.offset, page.offset + page.limit)
      .map((revisionid) => {
        const r = this.revision(id, revisionid)!;
        return { revisionid, date: new Date(r.at), editorId: r.editorId, summaryOfChange: r.summaryOfChange, langid: r.state.langid };
      });
  }

  async snapshot(id: WikiId, revisionid: number): Promise<WikiState | null> {
    const revision = this.stored.get(key(id, revisionid));
    return revision ? copyWikiState(revision.state) : null;
  }

  async categoryId(title: string): Promise<number | null> {
    return this.live().find((s) => s.namespace === 'CATEGORY' && s.title === title)?.id ?? null;
  }

  /** Walks up the parents from `candidateParent` (deleted pages included, as the recursive query does). */
  async isInSubtree(id: WikiId, candidateParent: number): Promise<boolean> {
    const seen = new Set<number>();
    for (let current: number | null | undefined = candidateParent; current !== null && current !== undefined; current = this.pages.get(current)?.parentId) {
      if (current === id) return true;
      if (seen.has(current)) return false;
      seen.add(current);
    }
    return false;
  }

  async liveChildren(id: WikiId): Promise<number> {
    return this.live().filter((s) => s.parentId === id).length;
  }

  /** In the order of `refs`, each once. */
  async existing(refs: readonly WikiRef[]): Promise<WikiRef[]> {
    const live = this.live();
    const found = refs.filter((r) => live.some((s) => s.namespace === r.namespace && s.title === r.title));
    return found.filter((r, i) => found.findIndex((o) => o.namespace === r.namespace && o.title === r.title) === i).map((r) => ({ namespace: r.namespace, title: r.title }));
  }

  // --- Test helpers (not part of the port) ---

  /** Every stored page (deleted ones too), in id order. */
  all(): WikiPage[] {
    return [...this.pages.keys()].sort((a, b) => a - b).map((id) => this.byId(id)!);
  }

  /** A stored page by id (deleted or not), or `null`. */
  byId(id: number): WikiPage | null {
    const state = this.pages.get(id);
    return state ? WikiPage.restore(copyWikiState(state)) : null;
  }

  /** The states of every live page, in id order (copies). */
  liveStates(): WikiState[] {
    return this.live().map(copyWikiState);
  }

  /** Every stored revision of a page, oldest first. */
  revisionsWithEditors(id: number): StoredWikiRevision[] {
    return this.revisionsOf(id).map((revisionid) => this.revision(id, revisionid)!);
  }

  /** The revision ids stored for a page, oldest first. */
  revisionsOf(id: number): number[] {
    return [...this.stored.values()]
      .filter((r) => r.state.id === id)
      .map((r) => r.state.revisionid)
      .sort((a, b) => a - b);
  }

  /** One stored revision with its editor and time, or `null`. */
  revision(id: number, revisionid: number): StoredWikiRevision | null {
    const revision = this.stored.get(key(id, revisionid));
    return revision ? { state: copyWikiState(revision.state), editorId: revision.editorId, at: new Date(revision.at), summaryOfChange: revision.summaryOfChange } : null;
  }

  /** The last revision id handed out; 0 before any save. */
  get lastRevision(): number {
    return this.lastRevisionid;
  }

  private live(): WikiState[] {
    return [...this.pages.values()].filter((s) => s.deletedAt === null).sort((a, b) => a.id - b.id);
  }
}

function key(id: number, revisionid: number): string {
  return `${id}:${revisionid}`;
}

export function copyWikiState(state: WikiState): WikiState {
  return {
    ...state,
    flags: [...state.flags],
    info: state.info.map((row) => ({ ...row })),
    related: state.related.map((ref) => ({ ...ref })),
    details: JSON.parse(JSON.stringify(state.details)) as WikiState['details'],
    createdAt: new Date(state.createdAt),
    modifiedAt: new Date(state.modifiedAt),
    deletedAt: state.deletedAt === null ? null : new Date(state.deletedAt),
  };
}
