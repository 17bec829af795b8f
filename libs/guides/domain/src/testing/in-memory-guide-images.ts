import type { ImageObject, ImageWriter } from '@rc/media-contracts';
import { GuideImages } from '../ports/guide-images.js';

/** Images by id with their owner; a writer may use their own images, and those marked `shown` (by public content). */
export class InMemoryGuideImages extends GuideImages {
  private readonly owners = new Map<number, number>();
  private readonly shownIds = new Set<number>();

  async objects(ids: readonly number[]): Promise<Map<number, ImageObject>> {
    return new Map(ids.filter((id) => this.owners.has(id)).map((id) => [id, { id, guid: `guid${id}`, original: `https://img.example/${id}.full` }]));
  }

  async usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>> {
    return new Set(ids.filter((id) => this.owners.has(id) && (this.owners.get(id) === writer.userId || this.shownIds.has(id))));
  }

  // --- Test helpers (not part of the port) ---

  /** Adds images of this owner. */
  add(ownerId: number, ...ids: number[]): void {
    for (const id of ids) this.owners.set(id, ownerId);
  }

  /** Marks images as shown by public content (anyone may use them). */
  shown(...ids: number[]): void {
    for (const id of ids) this.shownIds.add(id);
  }
}
