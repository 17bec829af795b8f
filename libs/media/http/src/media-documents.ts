import { MediaDocuments, type DocumentLink, type ImageWriter } from '@rc/media-contracts';
import type { DocumentId, MediaRepository } from '@rc/media-domain';
import { presentDocument, type MediaUrls } from './media.presenter.js';

/** The media context's published `MediaDocuments`: documents as content lists them, and which a writer may attach. */
export class MediaDocumentsForContent extends MediaDocuments {
  constructor(
    private readonly media: MediaRepository,
    private readonly urls: MediaUrls,
    private readonly baseUrl: string,
  ) {
    super();
  }

  async links(ids: readonly number[]): Promise<Map<number, DocumentLink>> {
    const found = await this.media.findDocuments([...new Set(ids)] as DocumentId[]);
    return new Map(
      found
        .filter((d) => !d.isDeleted)
        .map((d) => {
          const body = presentDocument(d, this.urls, this.baseUrl);
          // Site-relative, as the original's minimal form has it.
          const url = body.view_url.slice(this.baseUrl.length);
          return [d.state.id as number, { documentid: body.documentid, text: body.title, url, download_url: body.download_url }];
        }),
    );
  }

  async usableBy(writer: ImageWriter, ids: readonly number[]): Promise<Set<number>> {
    const found = await this.media.findDocuments([...new Set(ids)] as DocumentId[]);
    return new Set(found.filter((d) => !d.isDeleted && (writer.isAdmin || d.state.ownerId === writer.userId)).map((d) => d.state.id as number));
  }
}
