import { isId, type Violation } from '@rc/shared-kernel';
import { InvalidGuideError, StaleGuideTranslationError } from '../guides.errors.js';
import { GuideTranslation, type GuideTranslationInput } from '../model/guide-translation.js';
import { Guide, readChangeSummary, type Editor, type GuideId } from '../model/guide.js';
import type { GuideTranslationRepository } from '../ports/guide-translation.repository.js';
import { loadForWrite, type ChangeNote, type GuideWriteDeps } from './guide-writes.use-cases.js';

/** A translation write's answer: the guide as the language now shows it. */
export interface TranslatedGuide {
  readonly guide: Guide;
  readonly translation: GuideTranslation;
}

/**
 * The translation a write in `langid` works on: the stored one, whose revision must be `revisionid`;
 * or, when the language has none yet, a new one made from the guide's current revision, which
 * `revisionid` must then name (what a read in that language showed: the source, as it falls back).
 */
async function translationForWrite(translations: GuideTranslationRepository, guide: Guide, editor: Editor, langid: string, revisionid: number, now: Date): Promise<GuideTranslation> {
  const stored = await translations.find(guide.id, langid);
  if (stored) {
    stored.assertRevision(revisionid);
    return stored;
  }
  if (revisionid !== guide.state.revisionid) throw new StaleGuideTranslationError(guide.id, langid);
  return GuideTranslation.start(guide, langid, editor, guide.state.revisionid, now);
}

/** `source_revisionid`, when sent: the current or a stored revision of the guide in its own language (422 otherwise). */
async function sourceRevisionOf(deps: GuideWriteDeps, guide: Guide, raw: unknown): Promise<number | undefined> {
  if (raw === undefined) return undefined;
  const violation: Violation = { field: 'source_revisionid', message: `source_revisionid must be a revision of this guide in its own language ('${guide.state.locale}')` };
  if (!isId(raw)) throw new InvalidGuideError([violation]);
  const id = raw as number;
  if (id === guide.state.revisionid) return id;
  const snapshot = await deps.guides.snapshot(guide.id, id);
  if (!snapshot || snapshot.state.locale !== guide.state.locale) throw new InvalidGuideError([violation]);
  return id;
}

async function saveTranslation(deps: GuideWriteDeps, translations: GuideTranslationRepository, guide: Guide, translation: GuideTranslation, note: ChangeNote): Promise<void> {
  if (!translation.hasChanges) return;
  translation.describeChange(readChangeSummary(note.summaryOfChange));
  const userid = translation.editedBy;
  await translations.save(translation);
  const t = translation.state;
  const data = { guideid: guide.id, revisionid: t.revisionid, userid, public: guide.state.isPublic, langid: t.langid };
  await deps.events.publish({ type: 'guide.edited', resource: `guide:${guide.id}`, data, at: deps.clock.now() });
}

/**
 * Writes a guide's texts in another language than its own (`PATCH /guides/{id}?langid=xx`): the
 * translation's title, subject, summary, introduction and conclusion. The same editors as the
 * guide's; the guide stays locked meanwhile, so its translations are written one at a time.
 * `revisionid` is the translation's (or, to start one, the guide's current revision: see
 * `translationForWrite`); `source_revisionid` marks the translation as made from that revision.
 */
export class TranslateGuide {
  constructor(
    private readonly deps: GuideWriteDeps,
    private readonly translations: GuideTranslationRepository,
  ) {}

  /** `null` when the guide is written in `langid`: nothing was done, the caller edits the guide itself (EditGuide). */
  async execute(input: { editor: Editor; guideId: GuideId; langid: string; revisionid: number; fields: GuideTranslationInput } & ChangeNote): Promise<TranslatedGuide | null> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor);
      if (input.langid === guide.state.locale) return null;
      const now = this.deps.clock.now();
      const translation = await translationForWrite(this.translations, guide, editor, input.langid, input.revisionid, now);
      translation.edit(editor, input.fields, now);
      const source = await sourceRevisionOf(this.deps, guide, input.fields['source_revisionid']);
      if (source !== undefined) translation.resync(editor, source, now);
      await saveTranslation(this.deps, this.translations, guide, translation, input);
      return { guide: translation.applyTo(withLanguage(guide, input.langid)), translation };
    });
  }
}

/**
 * Writes a step's title and line texts in another language (`PATCH /guides/{id}/steps/{stepid}?langid=xx`):
 * `revisionid` is the step's as that language shows it. A language without a translation yet gets one.
 */
export class TranslateStep {
  constructor(
    private readonly deps: GuideWriteDeps,
    private readonly translations: GuideTranslationRepository,
  ) {}

  /** `null` when the guide is written in `langid`: nothing was done, the caller edits the step itself (EditStep). */
  async execute(input: { editor: Editor; guideId: GuideId; stepId: number; langid: string; revisionid: number; step: Readonly<Record<string, unknown>> } & ChangeNote): Promise<TranslatedGuide | null> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor);
      if (input.langid === guide.state.locale) return null;
      const step = guide.step(input.stepId);
      const now = this.deps.clock.now();
      const translation = (await this.translations.find(guide.id, input.langid)) ?? GuideTranslation.start(guide, input.langid, editor, guide.state.revisionid, now);
      translation.editStep(editor, step, input.revisionid, input.step, now);
      await saveTranslation(this.deps, this.translations, guide, translation, input);
      return { guide: translation.applyTo(withLanguage(guide, input.langid)), translation };
    });
  }
}

/** The guide with `langid` among its languages (a translation just started). */
function withLanguage(guide: Guide, langid: string): Guide {
  return guide.languages.includes(langid) ? guide : Guide.restore(guide.state, guide.steps.map((s) => s.toState()), guide.access, guide.statistics, [...guide.languages, langid]);
}

/**
 * A guide as a language shows it, for a viewer the caller already let see the guide: its
 * translation laid over it, or the guide itself (its own language) when there is none: the
 * original API falls back to the source language, and the answer's `langid` says which was served.
 */
export class ReadGuideTranslation {
  constructor(private readonly translations: GuideTranslationRepository) {}

  async execute(guide: Guide, langid: string | undefined): Promise<Guide> {
    if (langid === undefined || langid === guide.state.locale || !guide.languages.includes(langid)) return guide;
    const translation = await this.translations.find(guide.id, langid);
    return translation ? translation.applyTo(guide) : guide;
  }

  /** Inlined prerequisite guides as the language shows them (one lookup for all of them). */
  async many(guides: readonly Guide[], langid: string | undefined): Promise<Guide[]> {
    const wanted = langid === undefined ? [] : guides.filter((g) => g.state.locale !== langid && g.languages.includes(langid));
    if (!wanted.length) return [...guides];
    const found = await this.translations.findMany(wanted.map((g) => g.id), langid!);
    return guides.map((g) => found.get(g.id)?.applyTo(g) ?? g);
  }
}
