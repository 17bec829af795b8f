import type { GuideContributor } from '../model/guide-statistics.js';
import { GuideTranslation, type GuideTranslationState } from '../model/guide-translation.js';
import { GuideTranslationRepository } from '../ports/guide-translation.repository.js';
import type { InMemoryGuideRepository } from './in-memory-guide.repository.js';

/**
 * Translations kept in a map, as copies (a change is visible once saved). Revision ids come from
 * the guides' counter, as in the database; a new translation adds its language to the guide.
 */
export class InMemoryGuideTranslationRepository extends GuideTranslationRepository {
  private readonly stored = new Map<string, GuideTranslationState>();
  /** Every stored revision, by `guide:revisionid` (a test helper). */
  readonly revisions = new Map<string, GuideTranslationState>();
  /** The editors of each translation's stored revisions, by `guide:langid`. */
  private readonly translators = new Map<string, readonly GuideContributor[]>();

  constructor(private readonly guides: InMemoryGuideRepository) {
    super();
  }

  async find(guideId: number, langid: string): Promise<GuideTranslation | null> {
    const state = this.stored.get(`${guideId}:${langid}`);
    return state ? GuideTranslation.restore(copy(state), this.translators.get(`${guideId}:${langid}`) ?? []) : null;
  }

  async findMany(guideIds: readonly number[], langid: string): Promise<Map<number, GuideTranslation>> {
    const out = new Map<number, GuideTranslation>();
    for (const id of guideIds) {
      const found = await this.find(id, langid);
      if (found) out.set(id, found);
    }
    return out;
  }

  async save(translation: GuideTranslation): Promise<void> {
    if (!translation.hasChanges) return;
    const steps = new Map(translation.stepIdsChanged.map((id) => [id, this.guides.nextRevisionid()]));
    translation.markStored(this.guides.nextRevisionid(), steps);
    const state = copy(translation.state);
    this.stored.set(`${state.guideId}:${state.langid}`, state);
    this.translators.set(`${state.guideId}:${state.langid}`, translation.translators.map((t) => ({ ...t })));
    this.revisions.set(`${state.guideId}:${state.revisionid}`, copy(state));
    this.guides.addLanguage(state.guideId, state.langid);
  }
}

function copy(state: GuideTranslationState): GuideTranslationState {
  return JSON.parse(JSON.stringify(state), (key, value) => ((key === 'createdAt' || key === 'modifiedAt') && typeof value === 'string' ? new Date(value) : value)) as GuideTranslationState;
}
