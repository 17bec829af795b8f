import { Global, Module } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { WikiImages } from '@rc/catalog-domain';
import { PgWikiImagesInContent } from '@rc/catalog-infra-mikro-orm';
import { StoryImages } from '@rc/community-http';
import { GuideDocuments, GuideImages } from '@rc/guides-domain';
import { PgGuideImagesInContent } from '@rc/guides-infra-mikro-orm';
import { UserImages } from '@rc/identity-domain';
import { PgUserImagesInContent } from '@rc/identity-infra-mikro-orm';
import { MediaDocuments, MediaImages } from '@rc/media-contracts';
import { IMAGES_IN_CONTENT } from '@rc/media-http';
import { SearchImages } from '../search/site-search.js';

const PORTS = [GuideImages, WikiImages, UserImages, SearchImages, StoryImages];

/**
 * Images between the media context and the contexts whose content shows them: each one's own port
 * (guides, pages, avatars, search results, stories) is answered by the media context's published
 * `MediaImages`; the media context learns which content uses an image (and tells it when an
 * image's files change) from each content context's `ImagesInContent`. The guides' documents
 * (`GuideDocuments`) are answered by the media context's published `MediaDocuments` too.
 */
@Global()
@Module({
  providers: [
    ...PORTS.map((port) => ({ provide: port, useExisting: MediaImages })),
    // The documents guides attach: the media context's published documents.
    { provide: GuideDocuments, useExisting: MediaDocuments },
    {
      provide: IMAGES_IN_CONTENT,
      inject: [MikroORM],
      useFactory: (orm: MikroORM) => [new PgGuideImagesInContent(orm.em), new PgWikiImagesInContent(orm.em), new PgUserImagesInContent(orm.em)],
    },
  ],
  exports: [...PORTS, GuideDocuments, IMAGES_IN_CONTENT],
})
export class ImagesOfContentModule {}
