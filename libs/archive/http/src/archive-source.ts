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

/** Compares two titles as PostgreSQL's "C" collation does: by the bytes of their UTF-8 encoding. */
export function compareTitles(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
