import type { DocumentLink, ImageWriter } from '@rc/media-contracts';
import { GuideDocuments } from '../ports/guide-documents.js';

/** Documents by owner, as the media context would have them. */
export class InMemoryGuideDocuments extends GuideDocuments {
  private readonly owners = new Map<number, number>();

  /** Documents `ids` belong to `ownerId`. */
  add(ownerId: number, ...ids: number[]): void {
    for (const id of ids) this.owners.set(id, ownerId);
  }

  async links(ids: readonly number[]): Promise<Map<number, DocumentLink>> {
    return new Map(ids.filter((id) => this.owners.has(id)).map((id) => [id, { documentid: id, text: `Document ${id}`, url: `/Document/${id}`, download_url: `https://files.example/${id}.pdf` }]));
  }

  async usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>> {
    return new Set(ids.filter((id) => this.owners.has(id) && (writer.isAdmin || this.owners.get(id) === writer.userId)));
  }
}
