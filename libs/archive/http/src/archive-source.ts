import type { EntityManager } from '@mikro-orm/postgresql';

/** A category as the archive walks them: in title order (byte order, as PostgreSQL's "C" collation). */
export interface CategoryRef {
  readonly id: number;
  readonly title: string;
}

/** A public guide's place in the walk of guides by category. */
export interface GuideInCategory {
  readonly id: number;
  readonly category: string;
}

/**
 * The archive's read model over the guides and catalog tables: which guides and categories are
 * in it, read in keyset pages (each page one indexed query, whatever the table size), and a cheap
 * version of the content. Bodies are built by the contexts' own readers and presenters; this only
 * says what to build. Public, undeleted guides only; live categories only.
 */
export class ArchiveSource {
  constructor(private readonly em: EntityManager) {}

  /** What changed since `since` (the incremental archive's walks). */
  changesSince(since: Date): ArchiveChanges {
    return new ArchiveChanges(this.em, since);
  }

  /**
   * Changes whenever the archive's content may have: any guide or step revision (one sequence for
   * both), any page revision, and the numbers of public guides and of categories (deletions, and
   * guides made private). Four index or sequence reads.
   */
  async contentVersion(): Promise<string> {
    const [row] = await this.em.execute<{ g: string; w: string; gc: string; cc: string }[]>(
      `SELECT (SELECT last_value FROM guide_revision_seq)::text AS g,
              (SELECT last_value FROM wiki_revision_seq)::text AS w,
              (SELECT count(*) FROM guides WHERE is_public AND deleted_at IS NULL)::text AS gc,
              (SELECT count(*) FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL)::text AS cc`,
    );
    return `g${row!.g}.w${row!.w}.${row!.gc}.${row!.cc}`;
  }

  async counts(): Promise<{ guides: number; categories: number }> {
    const [row] = await this.em.execute<{ guides: number; categories: number }[]>(
      `SELECT (SELECT count(*) FROM guides WHERE is_public AND deleted_at IS NULL)::int AS guides,
              (SELECT count(*) FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL)::int AS categories`,
    );
    return row!;
  }

  /** Ids of the public guides, in id order, a page at a time. */
  async *publicGuideIds(pageSize: number): AsyncGenerator<number[]> {
    let after = 0;
    for (;;) {
      const rows = await this.em.execute<{ id: number }[]>(
        'SELECT id FROM guides WHERE is_public AND deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?',
        [after, pageSize],
      );
      if (!rows.length) return;
      yield rows.map((r) => r.id);
      after = rows[rows.length - 1]!.id;
      if (rows.length < pageSize) return;
    }
  }

  /** The live categories in title byte order, a page at a time. */
  async *categories(pageSize: number): AsyncGenerator<CategoryRef[]> {
    let after: string | null = null;
    for (;;) {
      const rows: CategoryRef[] = await this.em.execute<CategoryRef[]>(
        `SELECT id, title FROM wiki_pages
          WHERE namespace = 'CATEGORY' AND deleted_at IS NULL AND (?::text IS NULL OR title COLLATE "C" > ?::text COLLATE "C")
          ORDER BY title COLLATE "C" LIMIT ?`,
        [after, after, pageSize],
      );
      if (!rows.length) return;
      yield rows;
      after = rows[rows.length - 1]!.title;
      if (rows.length < pageSize) return;
    }
  }

  /**
   * The public guides ordered by category (byte order, like `categories`) then id, a page at a
   * time: walked beside the categories, it gives each category its guides without a query per
   * category.
   */
  async *publicGuidesByCategory(pageSize: number): AsyncGenerator<GuideInCategory[]> {
    let after: GuideInCategory | null = null;
    for (;;) {
      const rows: GuideInCategory[] = await this.em.execute<GuideInCategory[]>(
        `SELECT id, category FROM guides
          WHERE is_public AND deleted_at IS NULL
            AND (?::text IS NULL OR (category COLLATE "C", id) > (?::text COLLATE "C", ?::int))
          ORDER BY category COLLATE "C", id LIMIT ?`,
        [after?.category ?? null, after?.category ?? null, after?.id ?? 0, pageSize],
      );
      if (!rows.length) return;
      yield rows;
      after = rows[rows.length - 1]!;
      if (rows.length < pageSize) return;
    }
  }
}

/** A guide hidden since a time: deleted, or made private (its title and category as they were). */
export interface RemovedGuide {
  readonly id: number;
  readonly title: string;
  readonly reason: 'deleted' | 'private';
  readonly removedAt: Date;
}

/** A category deleted since a time (its title as it was). */
export interface RemovedCategory {
  readonly id: number;
  readonly title: string;
  readonly removedAt: Date;
}

/**
 * What changed since a time, for the incremental archive: the same walks as ArchiveSource's, over
 * the guides and categories whose documents may differ from their copy of then, and the
 * tombstones of what was hidden since (the `guide_tombstones` and `wiki_tombstones` tables the
 * contexts' triggers keep). Each page is one indexed query.
 */
export class ArchiveChanges {
  constructor(
    private readonly em: EntityManager,
    readonly since: Date,
  ) {}

  /**
   * Public guides whose document may have changed: modified since, or showing a prerequisite
   * modified (or hidden) since, in id order. One pass over the public guides' index in all.
   */
  async *guideIds(pageSize: number): AsyncGenerator<number[]> {
    let after = 0;
    for (;;) {
      const rows = await this.em.execute<{ id: number }[]>(
        `SELECT g.id FROM guides g
          WHERE g.is_public AND g.deleted_at IS NULL AND g.id > ?
            AND (g.modified_at >= ? OR (cardinality(g.prerequisites) > 0 AND EXISTS (SELECT 1 FROM guides p WHERE p.id = ANY(g.prerequisites) AND p.modified_at >= ?)))
          ORDER BY g.id LIMIT ?`,
        [after, this.since, this.since, pageSize],
      );
      if (!rows.length) return;
      yield rows.map((r) => r.id);
      after = rows[rows.length - 1]!.id;
      if (rows.length < pageSize) return;
    }
  }

  /**
   * The titles of the live categories whose document may have changed: a category page modified
   * since; the parent of a category created, renamed, moved or deleted since (its children) and
   * its former parent; every category below one renamed or moved since (their ancestors); the
   * category of a guide modified or hidden since, and a modified guide's former category (their
   * guide lists, parts and tools). One query; what it holds grows with the number of categories
   * at most, never with the guides.
   */
  async categoryTitles(): Promise<Set<string>> {
    const s = this.since;
    const rows = await this.em.execute<{ title: string }[]>(
      `WITH RECURSIVE
         changed AS (SELECT id, title, parent_id FROM wiki_pages WHERE namespace = 'CATEGORY' AND deleted_at IS NULL AND modified_at >= ?),
         before AS (
           SELECT c.id, c.title, c.parent_id, prev.title AS old_title, prev.parent_id AS old_parent_id, prev.title IS NULL AS created
             FROM changed c
             LEFT JOIN LATERAL (SELECT r.snapshot->>'title' AS title, (r.snapshot->>'parentId')::int AS parent_id FROM wiki_revisions r
                                 WHERE r.wiki_id = c.id AND r.created_at < ? ORDER BY r.revisionid DESC LIMIT 1) prev ON true),
         moved AS (SELECT id FROM before WHERE NOT created AND (old_title <> title OR old_parent_id IS DISTINCT FROM parent_id)),
         below(id, depth) AS (
           SELECT id, 0 FROM moved
           UNION ALL
           SELECT w.id, b.depth + 1 FROM wiki_pages w JOIN below b ON w.parent_id = b.id WHERE w.namespace = 'CATEGORY' AND w.deleted_at IS NULL AND b.depth < 100),
         affected(title) AS (
           SELECT title FROM changed
           UNION SELECT w.title FROM below b JOIN wiki_pages w ON w.id = b.id
           UNION SELECT p.title FROM before c JOIN wiki_pages p ON p.id = c.parent_id OR p.id = c.old_parent_id
                  WHERE c.created OR c.old_title <> c.title OR c.old_parent_id IS DISTINCT FROM c.parent_id
           UNION SELECT p.title FROM wiki_tombstones t JOIN wiki_pages p ON p.id = t.parent_id WHERE t.namespace = 'CATEGORY' AND t.removed_at >= ?
           UNION SELECT g.category FROM guides g WHERE g.is_public AND g.deleted_at IS NULL AND g.modified_at >= ?
           UNION SELECT t.category FROM guide_tombstones t WHERE t.removed_at >= ?
           UNION SELECT prev.category FROM guides g
                  CROSS JOIN LATERAL (SELECT r.snapshot->'state'->>'category' AS category FROM guide_revisions r
                                       WHERE r.guide_id = g.id AND r.created_at < ? ORDER BY r.revisionid DESC LIMIT 1) prev
                  WHERE g.is_public AND g.deleted_at IS NULL AND g.modified_at >= ?)
       SELECT DISTINCT title FROM affected WHERE title IS NOT NULL`,
      [s, s, s, s, s, s, s],
    );
    return new Set(rows.map((r) => r.title));
  }

  /** A category's public guides in id order (as the full build lists them), a page at a time. */
  async *guideIdsOf(category: string, pageSize: number): AsyncGenerator<number[]> {
    let after = 0;
    for (;;) {
      const rows = await this.em.execute<{ id: number }[]>(
        'SELECT id FROM guides WHERE is_public AND deleted_at IS NULL AND category = ? AND id > ? ORDER BY id LIMIT ?',
        [category, after, pageSize],
      );
      if (!rows.length) return;
      yield rows.map((r) => r.id);
      after = rows[rows.length - 1]!.id;
      if (rows.length < pageSize) return;
    }
  }

  /** Guides hidden since (and not public again), in id order, a page at a time. */
  async *removedGuides(pageSize: number): AsyncGenerator<RemovedGuide[]> {
    let after = 0;
    for (;;) {
      const rows = await this.em.execute<{ guide_id: number; title: string; reason: 'deleted' | 'private'; removed_at: Date | string }[]>(
        'SELECT guide_id, title, reason, removed_at FROM guide_tombstones WHERE removed_at >= ? AND guide_id > ? ORDER BY guide_id LIMIT ?',
        [this.since, after, pageSize],
      );
      if (!rows.length) return;
      yield rows.map((r) => ({ id: r.guide_id, title: r.title, reason: r.reason, removedAt: new Date(r.removed_at) }));
      after = rows[rows.length - 1]!.guide_id;
      if (rows.length < pageSize) return;
    }
  }

  /** Categories deleted since (and not live again), in id order, a page at a time. */
  async *removedCategories(pageSize: number): AsyncGenerator<RemovedCategory[]> {
    let after = 0;
    for (;;) {
      const rows = await this.em.execute<{ wiki_id: number; title: string; removed_at: Date | string }[]>(
        `SELECT wiki_id, title, removed_at FROM wiki_tombstones WHERE namespace = 'CATEGORY' AND removed_at >= ? AND wiki_id > ? ORDER BY wiki_id LIMIT ?`,
        [this.since, after, pageSize],
      );
      if (!rows.length) return;
      yield rows.map((r) => ({ id: r.wiki_id, title: r.title, removedAt: new Date(r.removed_at) }));
      after = rows[rows.length - 1]!.wiki_id;
      if (rows.length < pageSize) return;
    }
  }
}

/** Compares two titles as PostgreSQL's "C" collation does: by the bytes of their UTF-8 encoding. */
export function compareTitles(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
