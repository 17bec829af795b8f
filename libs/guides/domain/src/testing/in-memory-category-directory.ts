import { CategoryDirectory } from '../ports/category-directory.js';

/** The category titles the catalog context would know (exact, case-sensitive titles). */
export class InMemoryCategoryDirectory extends CategoryDirectory {
  private readonly titles: Set<string>;

  constructor(titles: Iterable<string> = []) {
    super();
    this.titles = new Set(titles);
  }

  async exists(title: string): Promise<boolean> {
    return this.titles.has(title);
  }

  // --- Test helpers (not part of the port) ---

  add(...titles: string[]): void {
    for (const title of titles) this.titles.add(title);
  }

  remove(title: string): void {
    this.titles.delete(title);
  }
}
