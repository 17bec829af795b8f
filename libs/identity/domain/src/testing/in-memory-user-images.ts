import type { ImageObject, ImageWriter } from '@rc/media-contracts';
import { UserImages } from '../ports/user-images.js';

/** Images by id with their owner; a user may take their own images only. */
export class InMemoryUserImages extends UserImages {
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
