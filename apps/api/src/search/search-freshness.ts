import type { EntityManager } from '@mikro-orm/postgresql';

/** What a search page shows that can change under it: its guides, its pages and its guides' authors. */
export interface ShownIds {
  readonly guides: readonly number[];
  readonly wikis: readonly number[];
  readonly authors: readonly number[];
}

/**
 * The state of what a page shows, as comparable values: `[id, revisionid + media stamp (both only
 * grow, so the sum changes with either: see the guides' GuidesMedia), prerequisites' latest
 * modification in UNIX seconds]` per listed guide, `[id, revisionid]` per live page, `[id,
 * username]` per active author, each by id. Anything not listed, deleted or disabled drops out.
 */
export interface ShownState {
  readonly guides: readonly (readonly [number, number, number])[];
  readonly wikis: readonly (readonly [number, number])[];
  readonly authors: readonly (readonly [number, string])[];
}

const ids = (values: readonly number[]) => JSON.stringify([...new Set(values)]);

/**
 * Reads the current {@link ShownState} of a search page's items in one statement (a few primary
 * key lookups in guides, wiki_pages and users). A read adapter of the composition root, like
 * WikiSearch: it reads the three contexts' tables for one purpose, telling whether a kept search
 * page still shows what is there now.
 */
export class SearchFreshness {
  constructor(private readonly em: EntityManager) {}

  async current(shown: ShownIds): Promise<ShownState> {
    const [row] = await this.em.execute<ShownState[]>(
      `SELECT
         (SELECT coalesce(json_agg(json_build_array(g.id, g.revisionid + g.media_stamp,
                   coalesce(floor(extract(epoch FROM (SELECT max(p.modified_at) FROM guides p WHERE p.id = ANY(g.prerequisites) AND p.is_public AND p.deleted_at IS NULL)))::bigint, 0))
                 ORDER BY g.id), '[]')
            FROM guides g WHERE g.id = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)) AND g.is_public AND g.deleted_at IS NULL) AS guides,
         (SELECT coalesce(json_agg(json_build_array(w.id, w.revisionid) ORDER BY w.id), '[]')
            FROM wiki_pages w WHERE w.id = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)) AND w.deleted_at IS NULL) AS wikis,
         (SELECT coalesce(json_agg(json_build_array(u.id, u.username) ORDER BY u.id), '[]')
            FROM users u WHERE u.id = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)) AND u.status = 'active') AS authors`,
      [ids(shown.guides), ids(shown.wikis), ids(shown.authors)],
    );
    return row!;
  }
}

/** Whether two states are the same (compared as canonical JSON). */
export function sameState(a: ShownState, b: ShownState): boolean {
  return JSON.stringify([a.guides, a.wikis, a.authors]) === JSON.stringify([b.guides, b.wikis, b.authors]);
}
