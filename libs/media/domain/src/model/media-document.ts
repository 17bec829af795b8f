import type { DocumentId, ImageId } from './media-ids.js';

/** Documents are PDF files (reference §3.13: `document_type`, `document_extension`, `document_group`). */
export const PDF_MIME = 'application/pdf';

/** Whether bytes start as a PDF does (`%PDF-`, possibly after up to 1 KB of junk, as readers allow). */
export function looksLikePdf(head: Uint8Array): boolean {
  const limit = Math.min(head.length - 5, 1024);
  for (let i = 0; i <= limit; i++) {
    if (head[i] === 0x25 && head[i + 1] === 0x50 && head[i + 2] === 0x44 && head[i + 3] === 0x46 && head[i + 4] === 0x2d) return true;
  }
  return false;
}

export interface DocumentState {
  readonly id: DocumentId;
  readonly guid: string;
  readonly ownerId: number;
  readonly filename: string;
  readonly title: string;
  readonly byteSize: number;
  /** Pages, when counted; `null` while unknown. */
  readonly pages: number | null;
  readonly thumbnailImageId: ImageId | null;
  readonly createdAt: Date;
  readonly deletedAt: Date | null;
}

/** A PDF a user uploaded, attached to wiki pages, guides or posts (visible through them). */
export class MediaDocument {
  private constructor(private current: DocumentState) {}

  static restore(state: DocumentState): MediaDocument {
    return new MediaDocument({ ...state });
  }

  static upload(input: { id: DocumentId; guid: string; ownerId: number; filename: string; title: string; byteSize: number; now: Date }): MediaDocument {
    const { now, ...fields } = input;
    return new MediaDocument({ ...fields, pages: null, thumbnailImageId: null, createdAt: now, deletedAt: null });
  }

  static keyFor(guid: string): string {
    return `documents/${guid}/document.pdf`;
  }

  get id(): DocumentId {
    return this.current.id;
  }

  get key(): string {
    return MediaDocument.keyFor(this.current.guid);
  }

  get state(): DocumentState {
    return this.current;
  }

  get isDeleted(): boolean {
    return this.current.deletedAt !== null;
  }

  removeFromLibrary(now: Date): void {
    if (!this.isDeleted) this.current = { ...this.current, deletedAt: now };
  }
}
