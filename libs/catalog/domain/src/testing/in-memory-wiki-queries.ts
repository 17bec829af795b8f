import type { Page } from '@rc/shared-kernel';
import type { Namespace, WikiState } from '../model/wiki-page.js';
import { WikiQueries, type CategoryNode, type WikiSummaryView } from '../ports/wiki-queries.js';
import type { InMemoryWikiRepository } from './in-memory-wiki.repository.js';

/**
 * The read side over an InMemoryWikiRepository's pages, answering as the SQL queries do: deleted
 * pages never appear, lists are ordered by title (plain code-unit order here, then id).
 */
export class InMemoryWikiQueries extends WikiQueries {
  constructor(private readonly wikis: InMemoryWikiRepository) {
    super();
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

  async children(id: number): Promise<WikiSummaryView[]> {
    return byTitle(this.wikis.liveStates().filter((s) => s.parentId === id)).map(summaryOf);
  }
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
