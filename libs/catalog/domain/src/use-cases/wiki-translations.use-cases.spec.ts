import { InvalidWikiError, StaleWikiTranslationError, WikiEditorRequiredError } from '../catalog.errors.js';
import { catalogTestBed, wikiAdmin, wikiUser } from '../testing/index.js';

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject');
}

describe('wiki page translations', () => {
  async function setUp() {
    const bed = catalogTestBed();
    const page = await bed.category('Phone', null, { contents: 'Fix it.', description: 'A phone.', display_title: 'Phone' });
    return { bed, page };
  }

  it('starts from the page\'s revision, lays its texts over the page, and keeps the rest shared', async () => {
    const { bed, page } = await setUp();
    const shown = (await bed.translateWiki.execute({ editor: wikiAdmin, namespace: 'CATEGORY', title: 'Phone', langid: 'de', revisionid: page.state.revisionid, fields: { contents: 'Repariere es.', display_title: 'Telefon' } }))!;
    expect(shown.state).toMatchObject({ title: 'Phone', displayTitle: 'Telefon', contents: 'Repariere es.', description: 'A phone.', langid: 'de', details: expect.objectContaining({ sourceRevisionid: page.state.revisionid }) });
    expect(shown.state.revisionid).toBeGreaterThan(page.state.revisionid);
    expect(shown.availableLangids).toEqual(['de', 'en']);
    const stored = await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'Phone' });
    expect(stored.state).toMatchObject({ revisionid: page.state.revisionid, contents: 'Fix it.', langid: 'en' });
    expect(stored.availableLangids).toEqual(['de', 'en']);
    expect((await bed.readWikiTranslation.execute(stored, 'de')).state.contents).toBe('Repariere es.');
    expect((await bed.readWikiTranslation.execute(stored, 'fr')).state).toEqual(stored.state);
    expect(bed.events.published.at(-1)).toMatchObject({ type: 'wiki.edited', data: { langid: 'de', revisionid: shown.state.revisionid } });
  });

  it('checks revisions, shared fields, the editor, and leaves the page\'s own language to the plain edit', async () => {
    const { bed, page } = await setUp();
    const rev = page.state.revisionid;
    const translate = (fields: Record<string, unknown>, revisionid: number | null = rev, editor = wikiAdmin, langid = 'de') =>
      bed.translateWiki.execute({ editor, namespace: 'CATEGORY', title: 'Phone', langid, revisionid, fields });
    expect(await rejectionOf(translate({ contents: 'x' }, rev - 1))).toBeInstanceOf(StaleWikiTranslationError);
    const first = (await translate({ contents: 'Eins' }))!;
    expect(await rejectionOf(translate({ contents: 'Zwei' }))).toBeInstanceOf(StaleWikiTranslationError);
    expect(await rejectionOf(translate({ contents: 'Zwei' }, null))).toBeInstanceOf(InvalidWikiError);
    expect((await translate({ contents: 'Eins' }, first.state.revisionid))!.state.revisionid).toBe(first.state.revisionid);
    const shared = (await rejectionOf(translate({ flags: [], info: [] }, first.state.revisionid))) as InvalidWikiError;
    expect(shared.violations.map((v) => v.field)).toEqual(['flags', 'info']);
    expect(await rejectionOf(translate({ contents: 'x' }, first.state.revisionid, wikiUser))).toBeInstanceOf(WikiEditorRequiredError);
    expect(await translate({ contents: 'x' }, rev, wikiAdmin, 'en')).toBeNull();
  });
});
