import type { WikiId } from '../model/wiki-page.js';
import { WikiTags } from '../ports/wiki.repository.js';

/** Tags per page, each once (like the table's primary key); listed in alphabetical order. */
export class InMemoryWikiTags extends WikiTags {
  private readonly rows = new Map<number, Map<string, Date>>();

  async list(id: WikiId): Promise<string[]> {
    return [...(this.rows.get(id)?.keys() ?? [])].sort();
  }

  async add(id: WikiId, tag: string, at: Date): Promise<boolean> {
    const tags = this.rows.get(id) ?? new Map<string, Date>();
    this.rows.set(id, tags);
    if (tags.has(tag)) return false;
    tags.set(tag, new Date(at));
    return true;
  }

  async remove(id: WikiId, tag: string): Promise<boolean> {
    return this.rows.get(id)?.delete(tag) ?? false;
  }

  // --- Test helpers (not part of the port) ---

  /** When the tag was added, or `null`. */
  taggedAt(id: number, tag: string): Date | null {
    const at = this.rows.get(id)?.get(tag);
    return at ? new Date(at) : null;
  }
}
