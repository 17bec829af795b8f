import type { ImageObject, ImageWriter } from '@rc/media-contracts';
import { WikiImages } from '../ports/wiki-images.js';

/** Images by id with their owner; a writer may use their own images only. */
export class InMemoryWikiImages extends WikiImages {
  private readonly owners = new Map<number, number>();

  async objects(ids: readonly number[]): Promise<Map<number, ImageObject>> {
    return new Map(ids.filter((id) => this.owners.has(id)).map((id) => [id, { id, guid: `guid${id}`, original: `https://img.example/${id}.full` }]));
  }

  async usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>> {
    return new Set(ids.filter((id) => this.owners.get(id) === writer.userId));
  }

  // --- Test helper (not part of the port) ---

  add(ownerId: number, ...ids: number[]): void {
    for (const id of ids) this.owners.set(id, ownerId);
  }
}
