import { GuideTags } from '../ports/guide-activity.js';

/** Tags per guide, each once (like the table's primary key); listed in alphabetical order. */
export class InMemoryGuideTags extends GuideTags {
  private readonly rows = new Map<number, Map<string, Date>>();

  async list(guideId: number): Promise<string[]> {
    return [...(this.rows.get(guideId)?.keys() ?? [])].sort();
  }

  async add(guideId: number, tag: string, at: Date): Promise<boolean> {
    const tags = this.rows.get(guideId) ?? new Map<string, Date>();
    this.rows.set(guideId, tags);
    if (tags.has(tag)) return false;
    tags.set(tag, new Date(at));
    return true;
  }

  async remove(guideId: number, tag: string): Promise<boolean> {
    return this.rows.get(guideId)?.delete(tag) ?? false;
  }
}
