import type { WikiTranslation } from '../model/wiki-translation.js';

/** Translations of wiki pages, by page and language. Writers hold the page's lock (`WikiRepository.findByTitle(…, true)`). */
export abstract class WikiTranslationRepository {
  abstract find(wikiId: number, langid: string): Promise<WikiTranslation | null>;
  /**
   * Stores the changes under a new revision id (from the pages' revision sequence) with a snapshot
   * of the revision; a new translation adds its language to the page's languages. No-op when unchanged.
   */
  abstract save(translation: WikiTranslation): Promise<void>;
}
