import { isLangid, parseLangid, UnknownLanguageError } from '@rc/shared-kernel';
import { InvalidGuideError, NotGuideEditorError, StaleGuideTranslationError, StaleStepRevisionError } from '../guides.errors.js';
import { contributorShares } from '../model/guide-statistics.js';
import { admin, author, guidesTestBed, linesOf, other, rejectionOf, thrownBy } from '../testing/index.js';

async function violationsOf(promise: Promise<unknown>) {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(InvalidGuideError);
  return (error as InvalidGuideError).violations;
}

describe('guide translations', () => {
  async function setUp() {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['First', 'Second'], { title: 'Battery', summary: 'Swap it.', introduction: 'Intro' });
    return { bed, guide };
  }

  it('starts from the source revision, lays its texts over the guide and keeps the rest shared', async () => {
    const { bed, guide } = await setUp();
    const result = await bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: guide.state.revisionid, fields: { title: 'Akku', summary: '' } });
    expect(result).not.toBeNull();
    const { guide: shown, translation } = result!;
    expect(translation.state).toMatchObject({ langid: 'de', sourceRevisionid: guide.state.revisionid, title: 'Akku', summary: null });
    expect(translation.state.revisionid).toBeGreaterThan(guide.state.revisionid);
    expect(shown.state).toMatchObject({ title: 'Akku', summary: 'Swap it.', introduction: 'Intro', locale: 'de', revisionid: translation.state.revisionid, category: guide.state.category });
    expect(shown.availableLangids).toEqual(['de', 'en']);
    // The guide itself is unchanged (no new revision) and now lists the language.
    const stored = await bed.stored(guide.id);
    expect(stored.state.revisionid).toBe(guide.state.revisionid);
    expect(stored.state.title).toBe('Battery');
    expect(stored.availableLangids).toEqual(['de', 'en']);
    // Read back in German, and in a language without a translation (the source).
    expect((await bed.readTranslation.execute(stored, 'de')).state.title).toBe('Akku');
    expect((await bed.readTranslation.execute(stored, 'fr')).state).toEqual(stored.state);
    expect((await bed.readTranslation.execute(stored, undefined)).state).toEqual(stored.state);
  });

  it('checks revisions: the source\'s to start, then the translation\'s own', async () => {
    const { bed, guide } = await setUp();
    expect(await rejectionOf(bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: guide.state.revisionid - 1, fields: { title: 'Akku' } }))).toBeInstanceOf(StaleGuideTranslationError);
    const first = (await bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: guide.state.revisionid, fields: { title: 'Akku' } }))!;
    const stale = await rejectionOf(bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: guide.state.revisionid, fields: { title: 'Batterie' } }));
    expect(stale).toBeInstanceOf(StaleGuideTranslationError);
    expect(stale).toMatchObject({ guideId: guide.id, langid: 'de' });
    const noop = (await bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: first.translation.state.revisionid, fields: { title: 'Akku' } }))!;
    expect(noop.translation.state.revisionid).toBe(first.translation.state.revisionid);
    expect(bed.events.published.filter((e) => e.data['langid'] === 'de')).toHaveLength(1);
  });

  it('refuses shared and unknown fields, too long texts and outsiders; the guide\'s own language is left to the plain edit', async () => {
    const { bed, guide } = await setUp();
    const rev = guide.state.revisionid;
    const violations = await violationsOf(bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: rev, fields: { category: 'x', parts: [], nonsense: 1, title: 'x'.repeat(256) } }));
    expect(violations.map((v) => v.field).sort()).toEqual(['category', 'nonsense', 'parts', 'title']);
    expect(await rejectionOf(bed.translateGuide.execute({ editor: other, guideId: guide.id, langid: 'de', revisionid: rev, fields: { title: 'Akku' } }))).toBeInstanceOf(NotGuideEditorError);
    expect(await bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'en', revisionid: rev, fields: { title: 'Akku' } })).toBeNull();
    expect(await violationsOf(bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: rev, fields: { source_revisionid: 12345 } }))).toEqual([expect.objectContaining({ field: 'source_revisionid' })]);
    expect((await bed.stored(guide.id)).languages).toEqual([]);
  });

  it('translates a step\'s title and lines by position, with the step\'s own revision in that language', async () => {
    const { bed, guide } = await setUp();
    const step = guide.steps[0]!;
    const done = (await bed.translateStep.execute({ editor: author, guideId: guide.id, stepId: step.id, langid: 'fr', revisionid: step.revisionid, step: { title: 'Premier', lines: ['Premier pas'] } }))!;
    const shown = done.guide.step(step.id);
    expect(shown.title).toBe('Premier');
    expect(shown.lines).toEqual([{ ...step.lines[0]!, text: 'Premier pas' }]);
    expect(shown.revisionid).not.toBe(step.revisionid);
    expect(done.guide.steps[1]!.toState()).toEqual(guide.steps[1]!.toState());
    expect(await rejectionOf(bed.translateStep.execute({ editor: author, guideId: guide.id, stepId: step.id, langid: 'fr', revisionid: step.revisionid, step: { title: 'x' } }))).toBeInstanceOf(StaleStepRevisionError);
    const wrong = await violationsOf(bed.translateStep.execute({ editor: author, guideId: guide.id, stepId: step.id, langid: 'fr', revisionid: shown.revisionid, step: { lines: ['a', 'b'], media: null } }));
    expect(wrong.map((v) => v.field).sort()).toEqual(['lines', 'media']);
    // The source step is as it was.
    expect((await bed.stored(guide.id)).step(step.id).toState()).toEqual(step.toState());
  });

  it('counts the translators of the language shown, each with their share; none in the guide\'s own language', async () => {
    const { bed, guide } = await setUp();
    const first = (await bed.translateGuide.execute({ editor: admin, guideId: guide.id, langid: 'de', revisionid: guide.state.revisionid, fields: { title: 'Akku' } }))!;
    // The write's answer already counts its own revision.
    expect(first.guide.statistics.translators).toEqual([{ userId: admin.userId, revisions: 1, firstRevisionid: first.translation.state.revisionid }]);
    const second = (await bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: first.translation.state.revisionid, fields: { summary: 'Tauschen.' } }))!;
    const step = second.guide.steps[0]!;
    await bed.translateStep.execute({ editor: author, guideId: guide.id, stepId: step.id, langid: 'de', revisionid: step.revisionid, step: { title: 'Erster' } });
    // Another language's translators are its own.
    await bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'fr', revisionid: guide.state.revisionid, fields: { title: 'Batterie' } });
    const stored = await bed.stored(guide.id);
    const german = await bed.readTranslation.execute(stored, 'de');
    // Whoever started the translation first, though the author saved more of its revisions.
    expect(contributorShares(german.statistics.translators)).toEqual([{ userId: admin.userId, percent: 33 }, { userId: author.userId, percent: 67 }]);
    // The guide's own contributors are untouched by translating it.
    expect(german.statistics.contributors).toEqual(stored.statistics.contributors);
    expect(contributorShares((await bed.readTranslation.execute(stored, 'fr')).statistics.translators)).toEqual([{ userId: author.userId, percent: 100 }]);
    // Its own language, and a language without a translation (the source shows): nobody translated it.
    expect(stored.statistics.translators).toEqual([]);
    expect((await bed.readTranslation.execute(stored, 'it')).statistics.translators).toEqual([]);
  });

  it('shows a source step added after the translation in the source language', async () => {
    const { bed, guide } = await setUp();
    await bed.translateGuide.execute({ editor: author, guideId: guide.id, langid: 'de', revisionid: guide.state.revisionid, fields: { title: 'Akku' } });
    await bed.appendStep(guide.id, { lines: linesOf('Third') });
    const shown = await bed.readTranslation.execute(await bed.stored(guide.id), 'de');
    expect(shown.steps.map((s) => s.lines[0]!.text)).toEqual(['First', 'Second', 'Third']);
    expect(shown.state.title).toBe('Akku');
  });
});

describe('language codes', () => {
  it('accepts two-letter codes (and jp), refuses anything else with a clear message', () => {
    expect(['en', 'de', 'fr', 'jp', 'ja', 'zh'].every(isLangid)).toBe(true);
    expect(parseLangid(undefined)).toBeUndefined();
    expect(parseLangid('')).toBeUndefined();
    expect(parseLangid(['de', 'fr'])).toBe('de');
    for (const bad of ['xx', 'EN', 'eng', 'de-DE', 1]) {
      const error = thrownBy(() => parseLangid(bad));
      expect(error).toBeInstanceOf(UnknownLanguageError);
      expect((error as Error).message).toMatch(/not a language code/);
    }
  });
});
