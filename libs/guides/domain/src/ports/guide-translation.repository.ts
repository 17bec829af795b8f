import type { GuideTranslation } from '../model/guide-translation.js';

/** Translations of guides, by guide and language. Writers hold the guide's lock (`GuideRepository.findForUpdate`). */
export abstract class GuideTranslationRepository {
  /** The translation of the guide into `langid`, or `null`. */
  abstract find(guideId: number, langid: string): Promise<GuideTranslation | null>;
  /** The translations of these guides into `langid` (those that exist), by guide id, in one query. */
  abstract findMany(guideIds: readonly number[], langid: string): Promise<Map<number, GuideTranslation>>;
  /**
   * Stores the changes under a new revision id (and one for each changed step's translation), with
   * a snapshot of the revision; a new translation adds its language to the guide's languages.
   * No-op when unchanged.
   */
  abstract save(translation: GuideTranslation): Promise<void>;
}
