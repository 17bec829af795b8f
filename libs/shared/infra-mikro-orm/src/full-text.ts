// Text for PostgreSQL full-text queries, built so that no user input can make a query fail.
// Every text reaches SQL as a bound parameter; these functions only decide what is worth asking.

import { LRUCache } from 'lru-cache';

/** Longest free-text query passed to `websearch_to_tsquery` (longer ones are cut, in code points). */
export const MAX_SEARCH_CHARS = 1000;
/** A prefix query keeps at most this many words … */
export const MAX_PREFIX_WORDS = 10;
/** … of at most this many code points each. */
export const MAX_PREFIX_WORD_CHARS = 64;

/**
 * The text to hand to `websearch_to_tsquery('english', ?)`, which accepts any text (quotes, `or`,
 * `-word`, stray operators) without a syntax error. `null` when the query can match nothing: empty
 * or blank, or carrying a NUL character (PostgreSQL text cannot hold one; a path can carry `%00`).
 */
export function webSearchText(raw: string): string | null {
  if (raw.includes('\u0000')) return null;
  const text = Array.from(raw.normalize('NFC').trim()).slice(0, MAX_SEARCH_CHARS).join('');
  return text.trim() === '' ? null : text;
}

/**
 * A prefix query for `to_tsquery('english', ?)` that matches documents holding a word starting
 * with each word typed: `batt rep` → `batt:* & rep:*`. Only letters and digits are kept, so the
 * result never holds tsquery syntax (`& | ! ( ) : * < - > '` or a backslash) and needs no escaping;
 * words are cut at {@link MAX_PREFIX_WORD_CHARS} code points and only the first
 * {@link MAX_PREFIX_WORDS} kept. `null` when there is no word (or a NUL character, as above).
 */
export function prefixTsQuery(raw: string): string | null {
  if (raw.includes('\u0000')) return null;
  const words = (raw.normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? [])
    .slice(0, MAX_PREFIX_WORDS)
    .map((word) => Array.from(word).slice(0, MAX_PREFIX_WORD_CHARS).join(''));
  return words.length ? words.map((word) => `${word}:*`).join(' & ') : null;
}

/**
 * A small in-process cache of search rankings, per normalized query: entries live `ttlMs` and at
 * most `maxEntries` are kept (the oldest go first). Callers keep only rankings (ids and ranks) of
 * queries matching many rows, and read the rows themselves fresh, so a hidden or deleted row never
 * shows; what may lag by up to `ttlMs` is the order and the total of those large result sets.
 */
export class RankingCache<T> {
  /** Oldest set first out (lru-cache: a `Map` kept in order costs V8 a scan of deleted slots per eviction). */
  private readonly entries: LRUCache<string, { at: number; value: T }>;
  /** Lookups answered and not (for the metrics). */
  hits = 0;
  misses = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: Math.max(1, maxEntries) });
  }

  get(key: string): T | undefined {
    return this.read(key)?.value;
  }

  /** The live entry of `key` with when it was set (ms, the cache's clock), or undefined. */
  read(key: string): { readonly value: T; readonly at: number } | undefined {
    const entry = this.entries.peek(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    if (this.now() - entry.at >= this.ttlMs) {
      this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry;
  }

  set(key: string, value: T): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    this.entries.set(key, { at: this.now(), value });
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The text-search configurations of the languages PostgreSQL stems; any other language is searched word for word. */
export const SEARCH_CONFIGS: Readonly<Record<string, string>> = {
  ar: 'arabic', da: 'danish', de: 'german', el: 'greek', en: 'english', es: 'spanish', fi: 'finnish', fr: 'french', hu: 'hungarian',
  id: 'indonesian', it: 'italian', lt: 'lithuanian', nb: 'norwegian', ne: 'nepali', nl: 'dutch', no: 'norwegian', pt: 'portuguese',
  ro: 'romanian', ru: 'russian', sv: 'swedish', ta: 'tamil', tr: 'turkish',
};

/** The text-search configuration of a language (`simple` for those without one): a name for `?::regconfig`. */
export const searchConfigOf = (langid: string): string => SEARCH_CONFIGS[langid] ?? 'simple';

/**
 * The configuration of the language in `column` as an immutable expression (each branch a
 * constant), for a generated search column of rows in several languages.
 */
export function searchConfigSql(column: string): string {
  return `CASE ${column} ${Object.entries(SEARCH_CONFIGS).map(([l, c]) => `WHEN '${l}' THEN '${c}'::regconfig`).join(' ')} ELSE 'simple'::regconfig END`;
}
