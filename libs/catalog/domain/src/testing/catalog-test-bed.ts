import { FixedClock, ImmediateUnitOfWork, RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import type { Namespace, WikiEditor, WikiInput, WikiPage } from '../model/wiki-page.js';
import { CompareWikiRevisions, CreateWiki, DeleteWiki, EditWiki, RevertWiki, TagWiki, ViewWiki, WikiHistory, type WikiDeps } from '../use-cases/wiki.use-cases.js';
import { InMemoryWikiImages } from './in-memory-wiki-images.js';
import { InMemoryWikiQueries } from './in-memory-wiki-queries.js';
import { InMemoryWikiTags } from './in-memory-wiki-tags.js';
import { InMemoryWikiRepository } from './in-memory-wiki.repository.js';
import { InMemoryWikiTranslationRepository } from './in-memory-wiki-translation.repository.js';
import { ReadWikiTranslation, TranslateWiki } from '../use-cases/wiki-translations.use-cases.js';

/** The editors the helpers act as. */
export const wikiAdmin: WikiEditor = { userId: 1, isAdmin: true };
export const otherAdmin: WikiEditor = { userId: 2, isAdmin: true };
export const wikiUser: WikiEditor = { userId: 3, isAdmin: false };

export interface CatalogTestBedOptions {
  /** Start time of the FixedClock (default 2026-01-01T00:00:00Z). */
  readonly now?: Date | string;
}

/** Every fake and every use case of the catalog context, wired together, with helpers that write as an Admin. */
export function catalogTestBed(options: CatalogTestBedOptions = {}) {
  const clock = new FixedClock(options.now);
  const uow = new ImmediateUnitOfWork();
  const wikis = new InMemoryWikiRepository();
  const tags = new InMemoryWikiTags();
  const queries = new InMemoryWikiQueries(wikis, tags);
  // Images 1 to 9 are wikiAdmin's, 10 to 19 otherAdmin's.
  const images = new InMemoryWikiImages();
  images.add(wikiAdmin.userId, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  images.add(otherAdmin.userId, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
  const events = new RecordingIntegrationEvents();
  const deps: WikiDeps = { wikis, images, clock, uow, events };
  const translations = new InMemoryWikiTranslationRepository(wikis);

  const bed = {
    clock,
    uow,
    wikis,
    queries,
    tags,
    images,
    deps,
    events,
    createWiki: new CreateWiki(deps),
    editWiki: new EditWiki(deps),
    deleteWiki: new DeleteWiki(deps),
    revertWiki: new RevertWiki(deps),
    viewWiki: new ViewWiki(wikis),
    wikiHistory: new WikiHistory(wikis),
    compareWikiRevisions: new CompareWikiRevisions(wikis),
    tagWiki: new TagWiki(wikis, tags, clock),
    translations,
    translateWiki: new TranslateWiki(deps, translations),
    readWikiTranslation: new ReadWikiTranslation(translations),

    /** Creates a page as an Admin. */
    page(namespace: Namespace, title: string, fields: WikiInput = {}, editor: WikiEditor = wikiAdmin): Promise<WikiPage> {
      return bed.createWiki.execute({ editor, fields: { namespace, title, ...fields } });
    },

    /** Creates a CATEGORY page under `parent` (a root when null). */
    category(title: string, parent: string | null = null, fields: WikiInput = {}): Promise<WikiPage> {
      return bed.page('CATEGORY', title, { parent, ...fields });
    },

    /** Creates categories along a path, each under the previous one; returns them top first. */
    async chain(...titles: string[]): Promise<WikiPage[]> {
      const out: WikiPage[] = [];
      for (const title of titles) out.push(await bed.category(title, out.at(-1)?.state.title ?? null));
      return out;
    },

    /** Edits the current revision of a page (read first, so never stale). */
    async edit(namespace: Namespace, title: string, fields: WikiInput, editor: WikiEditor = wikiAdmin): Promise<WikiPage> {
      const current = await bed.viewWiki.execute({ namespace, title });
      return bed.editWiki.execute({ editor, namespace, title, revisionid: current.state.revisionid, fields });
    },

    /** Deletes the current revision of a page. */
    async remove(namespace: Namespace, title: string, editor: WikiEditor = wikiAdmin): Promise<void> {
      const current = await bed.viewWiki.execute({ namespace, title });
      await bed.deleteWiki.execute({ editor, namespace, title, revisionid: current.state.revisionid });
    },
  };
  return bed;
}

export type CatalogTestBed = ReturnType<typeof catalogTestBed>;
