import type { Page } from '@rc/shared-kernel';
import type { Namespace, WikiId, WikiRef, WikiState } from '../model/wiki-page.js';
import { WikiQueries, type CategoryNode, type MaintenanceView, type WikiContributor, type WikiPageParts, type WikiPartsOf, type WikiSummaryView, type WikiTombstoneView } from '../ports/wiki-queries.js';
import type { WikiTags } from '../ports/wiki.repository.js';
import { InMemoryWikiTags } from './in-memory-wiki-tags.js';
import type { InMemoryWikiRepository } from './in-memory-wiki.repository.js';

/**
 * The read side over an InMemoryWikiRepository's pages, answering as the SQL queries do: deleted
 * pages never appear, lists are ordered by title (plain code-unit order here, then id).
 */
export class InMemoryWikiQueries extends WikiQueries {
  constructor(
    private readonly wikis: InMemoryWikiRepository,
    /** The tags `parts` lists (the InMemoryWikiTags the test writes through). */
    private readonly tags: WikiTags = new InMemoryWikiTags(),
  ) {
    super();
  }

  async parts(page: WikiPartsOf): Promise<WikiPageParts> {
    const category = page.namespace === 'CATEGORY';
    return {
      ancestors: category ? await this.ancestors(page.id) : [],
      children: category ? await this.children(page.id) : [],
      tags: await this.tags.list(page.id as WikiId),
      related: await this.byRefs(page.related),
      contributors: await this.contributors(page.id, page.revisionid),
      views: await this.views(page.id),
    };
  }

  async categoryTree(): Promise<CategoryNode[]> {
    return byTitle(this.wikis.liveStates().filter((s) => s.namespace === 'CATEGORY')).map((s) => ({
      id: s.id,
      title: s.title,
      displayTitle: s.displayTitle,
      parentId: s.parentId,
    }));
  }

  async list(namespace: Namespace, page: Page, options: { modifiedSince?: Date; leavesOnly?: boolean }): Promise<WikiSummaryView[]> {
    const live = this.wikis.liveStates();
    let rows = live.filter((s) => s.namespace === namespace);
    const since = options.modifiedSince;
    if (since) rows = rows.filter((s) => s.modifiedAt.getTime() >= since.getTime());
    if (options.leavesOnly) rows = rows.filter((s) => !live.some((c) => c.parentId === s.id));
    rows = since ? rows.sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime() || b.id - a.id) : byTitle(rows);
    return rows.slice(page.offset, page.offset + page.limit).map(summaryOf);
  }

  /** Closest first; walks through deleted pages but lists only live ones (as the recursive query does). */
  async ancestors(id: number): Promise<WikiSummaryView[]> {
    const out: WikiSummaryView[] = [];
    let parentId = this.wikis.byId(id)?.state.parentId ?? null;
    for (let depth = 1; parentId !== null && depth <= 100; depth++) {
      const parent = this.wikis.byId(parentId)?.state;
      if (!parent) break;
      if (parent.deletedAt === null) out.push(summaryOf(parent));
      parentId = parent.parentId;
    }
    return out;
  }

  async maintenance(id: number): Promise<MaintenanceView | null> {
    let page = this.wikis.byId(id)?.state;
    for (let depth = 0; page && depth <= 100; depth++) {
      if (page.deletedAt === null && page.details.maintenanceSchedule.length) return { title: page.title, revisionid: page.revisionid, schedules: page.details.maintenanceSchedule };
      page = page.parentId === null ? undefined : this.wikis.byId(page.parentId)?.state;
    }
    return null;
  }

  async children(id: number): Promise<WikiSummaryView[]> {
    return byTitle(this.wikis.liveStates().filter((s) => s.parentId === id)).map(summaryOf);
  }

  async byRefs(refs: readonly WikiRef[]): Promise<WikiSummaryView[]> {
    const live = this.wikis.liveStates();
    return refs.flatMap((r) => {
      const page = live.find((s) => s.namespace === r.namespace && s.title === r.title);
      return page ? [summaryOf(page)] : [];
    });
  }

  async byIds(ids: readonly number[]): Promise<WikiSummaryView[]> {
    return this.wikis.liveStates().filter((s) => ids.includes(s.id)).map(summaryOf);
  }

  /** Stored view counts, by page id (a test sets them). */
  readonly viewCounts = new Map<number, number>();

  async views(id: number): Promise<number> {
    return this.viewCounts.get(id) ?? 0;
  }

  async contributors(id: number, upToRevisionid: number): Promise<WikiContributor[]> {
    const byEditor = new Map<number, { userId: number; revisions: number; firstRevisionid: number }>();
    for (const { state, editorId } of this.wikis.revisionsWithEditors(id)) {
      if (state.revisionid > upToRevisionid) continue;
      const entry = byEditor.get(editorId) ?? { userId: editorId, revisions: 0, firstRevisionid: state.revisionid };
      entry.revisions += 1;
      entry.firstRevisionid = Math.min(entry.firstRevisionid, state.revisionid);
      byEditor.set(editorId, entry);
    }
    const all = [...byEditor.values()];
    const creator = Math.min(...all.map((c) => c.firstRevisionid));
    return all.sort((a, b) => Number(b.firstRevisionid === creator) - Number(a.firstRevisionid === creator) || b.revisions - a.revisions || a.firstRevisionid - b.firstRevisionid);
  }

  /** Deleted pages as the trigger records them: the deleted state's time, title and parent. */
  async removedSince(namespace: Namespace, since: Date, page: Page): Promise<WikiTombstoneView[]> {
    return removedSinceOf(this.wikis.all().map((p) => p.state), namespace, since, page);
  }
}

function removedSinceOf(pages: readonly WikiState[], namespace: Namespace, since: Date, page: Page): WikiTombstoneView[] {
  return pages
    .filter((s) => s.namespace === namespace && s.deletedAt !== null && s.modifiedAt.getTime() >= since.getTime())
    .sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime() || b.id - a.id)
    .slice(page.offset, page.offset + page.limit)
    .map((s) => ({ id: s.id, namespace: s.namespace, title: s.title, parentId: s.parentId, removedAt: new Date(s.modifiedAt) }));
}

function byTitle(states: WikiState[]): WikiState[] {
  return [...states].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id));
}

function summaryOf(s: WikiState): WikiSummaryView {
  return {
    id: s.id,
    namespace: s.namespace,
    title: s.title,
    displayTitle: s.displayTitle,
    description: s.description,
    modifiedAt: new Date(s.modifiedAt),
    langid: s.langid,
    authorId: s.authorId,
    imageId: s.imageId,
    revisionid: s.revisionid,
  };
}
