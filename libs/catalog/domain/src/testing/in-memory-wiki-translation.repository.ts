import { WikiTranslation, type WikiTranslationState } from '../model/wiki-translation.js';
import { WikiTranslationRepository } from '../ports/wiki-translation.repository.js';
import type { InMemoryWikiRepository } from './in-memory-wiki.repository.js';

/** Page translations kept in a map, as copies; revision ids from the pages' counter; a new one adds its language to the page. */
export class InMemoryWikiTranslationRepository extends WikiTranslationRepository {
  private readonly stored = new Map<string, WikiTranslationState>();

  constructor(private readonly wikis: InMemoryWikiRepository) {
    super();
  }

  async find(wikiId: number, langid: string): Promise<WikiTranslation | null> {
    const state = this.stored.get(`${wikiId}:${langid}`);
    return state ? WikiTranslation.restore({ ...state, contributorIds: [...state.contributorIds] }) : null;
  }

  async save(translation: WikiTranslation): Promise<void> {
    if (!translation.hasChanges) return;
    translation.markStored(this.wikis.nextRevisionid());
    const state = translation.state;
    this.stored.set(`${state.wikiId}:${state.langid}`, { ...state, contributorIds: [...state.contributorIds] });
    this.wikis.addLanguage(state.wikiId, state.langid);
  }
}
