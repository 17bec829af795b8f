import { NotFoundError, RuleViolationError, type Violation } from '@rc/shared-kernel';
import { InvalidWikiError, StaleWikiRevisionError, WikiEditorRequiredError, WikiNotFoundError, WikiRevisionNotFoundError } from '../catalog.errors.js';
import type { WikiPage } from '../model/wiki-page.js';
import { catalogTestBed, otherAdmin, wikiAdmin, wikiUser, type CatalogTestBed } from '../testing/catalog-test-bed.js';
import { namespaceOf } from './wiki.use-cases.js';

/** The violations of the InvalidWikiError a promise rejects with. */
async function violationsOf(promise: Promise<unknown>): Promise<readonly Violation[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidWikiError);
  expect(error).toBeInstanceOf(RuleViolationError);
  return (error as InvalidWikiError).violations;
}

let bed: CatalogTestBed;
beforeEach(() => {
  bed = catalogTestBed();
});

const current = (page: WikiPage) => bed.wikis.byId(page.id)!;

describe('namespaceOf', () => {
  it('reads a namespace in any case; an unknown one is not found', () => {
    expect(namespaceOf('category')).toBe('CATEGORY');
    expect(namespaceOf('Wiki')).toBe('WIKI');
    for (const bad of ['USERS', 'TEAMS', '', 'CATEGORIES']) expect(() => namespaceOf(bad)).toThrow(WikiNotFoundError);
    expect(new WikiNotFoundError()).toBeInstanceOf(NotFoundError);
  });
});

describe('CreateWiki', () => {
  it('stores the page under a fresh revision, in one unit of work', async () => {
    const page = await bed.page('WIKI', 'Battery_Safety', { contents: "'''Care'''" });
    expect(page.state.revisionid).toBe(1);
    expect(page.hasChanges).toBe(false);
    expect(current(page).state).toEqual(page.state);
    expect(bed.wikis.revisionsOf(page.id)).toEqual([1]);
    expect(bed.uow.runs).toBe(1);
    expect(page.state.title).toBe('Battery Safety');
  });

  it('hangs a category under the live category its parent names; no parent or "" makes a root', async () => {
    const phone = await bed.category('Phone');
    const iphone = await bed.category('iPhone', 'Phone');
    expect(iphone.state.parentId).toBe(phone.id);
    expect((await bed.category('Root A', null)).state.parentId).toBeNull();
    expect((await bed.page('CATEGORY', 'Root B', { parent: '' })).state.parentId).toBeNull();
    expect((await bed.page('CATEGORY', 'Root C')).state.parentId).toBeNull();
    // The parent's title is read like any title.
    expect((await bed.category('iPhone 12', 'iPhone_')).state.parentId).toBe(iphone.id);
  });

  it('refuses a parent that is not a live category (422)', async () => {
    await bed.page('WIKI', 'Just A Page');
    const deleted = await bed.category('Gone');
    await bed.remove('CATEGORY', deleted.state.title);
    for (const parent of ['Nowhere', 'Just A Page', 'Gone']) {
      expect(await violationsOf(bed.category('Child', parent))).toEqual([{ field: 'parent', message: `no category '${parent}'` }]);
    }
    expect((await violationsOf(bed.category('Child', 'a|b')))[0]).toMatchObject({ field: 'parent', message: expect.stringMatching(/^parent: /) });
    expect((await violationsOf(bed.page('CATEGORY', 'Child', { parent: 5 })))[0]).toEqual({ field: 'parent', message: 'parent: title must be a string' });
    expect(bed.wikis.all().map((p) => p.state.title)).not.toContain('Child');
  });

  it('refuses a title already used by a live page of the namespace (422), and stores nothing', async () => {
    await bed.page('WIKI', 'Taken');
    const revisions = bed.wikis.lastRevision;
    expect(await violationsOf(bed.page('WIKI', 'Taken'))).toEqual([{ field: 'title', message: "a WIKI page titled 'Taken' exists" }]);
    expect(await violationsOf(bed.page('WIKI', '  Taken_'))).toHaveLength(1);
    expect(bed.wikis.lastRevision).toBe(revisions);
    expect(bed.wikis.all().filter((p) => p.state.title === 'Taken')).toHaveLength(1);
  });

  it('allows the same title in another namespace, and the title of a deleted page', async () => {
    const first = await bed.page('WIKI', 'Shared Title');
    await bed.page('CATEGORY', 'Shared Title');
    await bed.remove('WIKI', 'Shared Title');
    const again = await bed.page('WIKI', 'Shared Title');
    expect(again.id).not.toBe(first.id);
    expect((await bed.viewWiki.execute({ namespace: 'WIKI', title: 'Shared Title' })).id).toBe(again.id);
  });

  it('is for Admins only, refused before any work', async () => {
    await expect(bed.page('WIKI', 'Mine', {}, wikiUser)).rejects.toBeInstanceOf(WikiEditorRequiredError);
    expect(bed.uow.runs).toBe(0);
    expect(bed.wikis.all()).toEqual([]);
  });

  it('checks that the related pages exist and are live (422, with the index of each missing one)', async () => {
    await bed.page('WIKI', 'Exists');
    await bed.page('ITEM', 'Spudger');
    await bed.page('WIKI', 'Deleted');
    await bed.remove('WIKI', 'Deleted');
    const page = await bed.page('WIKI', 'Linking', { related: ['Exists', { namespace: 'ITEM', title: 'Spudger' }] });
    expect(page.state.related).toEqual([
      { namespace: 'WIKI', title: 'Exists' },
      { namespace: 'ITEM', title: 'Spudger' },
    ]);
    expect(await violationsOf(bed.page('WIKI', 'Broken', { related: ['Exists', 'Deleted', { namespace: 'CATEGORY', title: 'Exists' }, 'Nowhere'] }))).toEqual([
      { field: 'related', message: "no WIKI page 'Deleted'", index: 1 },
      { field: 'related', message: "no CATEGORY page 'Exists'", index: 2 },
      { field: 'related', message: "no WIKI page 'Nowhere'", index: 3 },
    ]);
    expect(bed.wikis.all().map((p) => p.state.title)).not.toContain('Broken');
  });
});

describe('EditWiki', () => {
  it('stores a change as a new revision, kept with its editor', async () => {
    const page = await bed.page('WIKI', 'Page', { contents: 'one' });
    bed.clock.advance(1000);
    const edited = await bed.editWiki.execute({ editor: otherAdmin, namespace: 'WIKI', title: 'Page', revisionid: page.state.revisionid, fields: { contents: 'two' } });
    expect(edited.state.revisionid).toBeGreaterThan(page.state.revisionid);
    expect(edited.state.modifiedAt).toEqual(bed.clock.now());
    expect(current(page).state.contents).toBe('two');
    expect(bed.wikis.revisionsOf(page.id)).toEqual([page.state.revisionid, edited.state.revisionid]);
    expect(bed.wikis.revision(page.id, edited.state.revisionid)!.editorId).toBe(otherAdmin.userId);
    expect(bed.wikis.revision(page.id, page.state.revisionid)!.state.contents).toBe('one');
  });

  it('keeps the revision on a no-op edit', async () => {
    const page = await bed.page('WIKI', 'Page', { contents: 'same', related: [] });
    const before = bed.wikis.lastRevision;
    const same = await bed.editWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', revisionid: page.state.revisionid, fields: { contents: 'same', related: [] } });
    expect(same.state.revisionid).toBe(page.state.revisionid);
    expect(bed.wikis.lastRevision).toBe(before);
    expect(bed.wikis.revisionsOf(page.id)).toHaveLength(1);
  });

  it('refuses a stale revision with a conflict naming the page, and changes nothing', async () => {
    const page = await bed.page('CATEGORY', 'Phone', { contents: 'one' });
    await bed.edit('CATEGORY', 'Phone', { contents: 'two' });
    const attempt = bed.editWiki.execute({ editor: wikiAdmin, namespace: 'CATEGORY', title: 'Phone', revisionid: page.state.revisionid, fields: { contents: 'three' } });
    await expect(attempt).rejects.toBeInstanceOf(StaleWikiRevisionError);
    await expect(attempt).rejects.toMatchObject({ namespace: 'CATEGORY', title: 'Phone' });
    expect(current(page).state.contents).toBe('two');
  });

  it('answers not found for an unknown, deleted or badly titled page', async () => {
    await bed.page('WIKI', 'Gone');
    await bed.remove('WIKI', 'Gone');
    for (const title of ['Nowhere', 'Gone', 'a|b', '']) {
      await expect(bed.editWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title, revisionid: 1, fields: {} })).rejects.toBeInstanceOf(WikiNotFoundError);
    }
  });

  it('finds the page by its URL form (underscores)', async () => {
    await bed.page('WIKI', 'Two Words');
    expect((await bed.edit('WIKI', 'Two_Words', { contents: 'x' })).state.contents).toBe('x');
  });

  it('is for Admins only', async () => {
    const page = await bed.page('WIKI', 'Page');
    await expect(bed.editWiki.execute({ editor: wikiUser, namespace: 'WIKI', title: 'Page', revisionid: page.state.revisionid, fields: { contents: 'x' } })).rejects.toBeInstanceOf(
      WikiEditorRequiredError,
    );
    expect(current(page).state.contents).toBe('');
  });

  describe('moving categories', () => {
    beforeEach(async () => {
      await bed.chain('Electronics', 'Phone', 'iPhone', 'iPhone 12');
      await bed.category('Appliance');
    });

    it('moves a category (and so its subtree) under another one, or to the root', async () => {
      const moved = await bed.edit('CATEGORY', 'iPhone', { parent: 'Appliance' });
      const appliance = await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'Appliance' });
      expect(moved.state.parentId).toBe(appliance.id);
      const iphone12 = await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'iPhone 12' });
      expect((await bed.queries.ancestors(iphone12.id)).map((a) => a.title)).toEqual(['iPhone', 'Appliance']);
      expect((await bed.edit('CATEGORY', 'iPhone', { parent: null })).state.parentId).toBeNull();
    });

    it('refuses a move under itself or one of its descendants (422: it would make a cycle)', async () => {
      for (const parent of ['iPhone 12', 'iPhone', 'Phone']) {
        expect(await violationsOf(bed.edit('CATEGORY', 'Phone', { parent }))).toEqual([{ field: 'parent', message: 'a category cannot move under itself or one of its descendants' }]);
      }
      const electronics = await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'Electronics' });
      expect((await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'Phone' })).state.parentId).toBe(electronics.id);
      expect(await violationsOf(bed.edit('CATEGORY', 'Electronics', { parent: 'iPhone 12' }))).toHaveLength(1);
    });

    it('allows a move to a sibling or an ancestor', async () => {
      await bed.category('Android', 'Phone');
      expect((await bed.edit('CATEGORY', 'iPhone 12', { parent: 'Android' })).state.parentId).not.toBeNull();
      expect((await bed.edit('CATEGORY', 'iPhone 12', { parent: 'Electronics' })).state.parentId).toBe((await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'Electronics' })).id);
    });

    it('refuses a parent that is not a live category (422)', async () => {
      expect(await violationsOf(bed.edit('CATEGORY', 'iPhone', { parent: 'Nowhere' }))).toEqual([{ field: 'parent', message: "no category 'Nowhere'" }]);
    });

    it('ignores nothing: a parent sent to a non-category page is a 422', async () => {
      await bed.page('WIKI', 'Page');
      expect(await violationsOf(bed.edit('WIKI', 'Page', { parent: 'Phone' }))).toEqual([{ field: 'parent', message: 'only CATEGORY pages have a parent' }]);
    });
  });

  describe('related pages', () => {
    it('checks only newly named pages: a related page deleted since does not block other edits', async () => {
      await bed.page('WIKI', 'Kept');
      await bed.page('WIKI', 'Later Deleted');
      await bed.page('WIKI', 'Page', { related: ['Kept', 'Later Deleted'] });
      await bed.remove('WIKI', 'Later Deleted');
      const edited = await bed.edit('WIKI', 'Page', { contents: 'still fine', related: ['Later Deleted', 'Kept'] });
      expect(edited.state.related.map((r) => r.title)).toEqual(['Later Deleted', 'Kept']);
      expect(await violationsOf(bed.edit('WIKI', 'Page', { related: ['Kept', 'Nowhere'] }))).toEqual([{ field: 'related', message: "no WIKI page 'Nowhere'", index: 1 }]);
      expect(current(edited).state.related.map((r) => r.title)).toEqual(['Later Deleted', 'Kept']);
    });

    it('replaces the whole list; [] clears it', async () => {
      await bed.page('WIKI', 'A');
      await bed.page('WIKI', 'B');
      await bed.page('WIKI', 'Page', { related: ['A'] });
      expect((await bed.edit('WIKI', 'Page', { related: ['B'] })).state.related).toEqual([{ namespace: 'WIKI', title: 'B' }]);
      expect((await bed.edit('WIKI', 'Page', { related: [] })).state.related).toEqual([]);
    });
  });
});

describe('DeleteWiki', () => {
  it('soft-deletes the page as a new revision; it can no longer be read', async () => {
    const page = await bed.page('WIKI', 'Page');
    await bed.deleteWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', revisionid: page.state.revisionid });
    const stored = current(page);
    expect(stored.isDeleted).toBe(true);
    expect(stored.state.revisionid).toBeGreaterThan(page.state.revisionid);
    await expect(bed.viewWiki.execute({ namespace: 'WIKI', title: 'Page' })).rejects.toBeInstanceOf(WikiNotFoundError);
    await expect(bed.deleteWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', revisionid: stored.state.revisionid })).rejects.toBeInstanceOf(WikiNotFoundError);
  });

  it('refuses to delete a category that still has child categories (422)', async () => {
    await bed.chain('Phone', 'iPhone');
    const phone = await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'Phone' });
    expect(await violationsOf(bed.deleteWiki.execute({ editor: wikiAdmin, namespace: 'CATEGORY', title: 'Phone', revisionid: phone.state.revisionid }))).toEqual([
      { field: 'title', message: 'this category has child categories: move or delete them first' },
    ]);
    expect(current(phone).isDeleted).toBe(false);
  });

  it('deletes a category whose children are all deleted or moved away', async () => {
    await bed.chain('Phone', 'iPhone');
    await bed.category('Pager', 'Phone');
    await bed.category('Appliance');
    await bed.remove('CATEGORY', 'iPhone');
    await bed.edit('CATEGORY', 'Pager', { parent: 'Appliance' });
    await bed.remove('CATEGORY', 'Phone');
    expect(bed.wikis.liveStates().map((s) => s.title)).toEqual(['Pager', 'Appliance']);
  });

  it('refuses a stale revision (409) and non-Admins (403)', async () => {
    const page = await bed.page('WIKI', 'Page');
    await bed.edit('WIKI', 'Page', { contents: 'new' });
    await expect(bed.deleteWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', revisionid: page.state.revisionid })).rejects.toBeInstanceOf(StaleWikiRevisionError);
    const fresh = current(page);
    await expect(bed.deleteWiki.execute({ editor: wikiUser, namespace: 'WIKI', title: 'Page', revisionid: fresh.state.revisionid })).rejects.toBeInstanceOf(WikiEditorRequiredError);
    expect(current(page).isDeleted).toBe(false);
  });
});

describe('RevertWiki', () => {
  it('restores an old revision as a new one; the history keeps every revision', async () => {
    const created = await bed.page('WIKI', 'Page', { contents: 'one', description: 'first' });
    const second = await bed.edit('WIKI', 'Page', { contents: 'two', description: 'second' });
    const reverted = await bed.revertWiki.execute({ editor: otherAdmin, namespace: 'WIKI', title: 'Page', revisionid: second.state.revisionid, toRevisionid: created.state.revisionid });
    expect(reverted.state).toMatchObject({ contents: 'one', description: 'first' });
    expect(reverted.state.revisionid).toBeGreaterThan(second.state.revisionid);
    expect(bed.wikis.revisionsOf(created.id)).toEqual([created.state.revisionid, second.state.revisionid, reverted.state.revisionid]);
    expect(bed.wikis.revision(created.id, reverted.state.revisionid)!.editorId).toBe(otherAdmin.userId);
    // The reverted-from revision can still be read.
    expect((await bed.viewWiki.execute({ namespace: 'WIKI', title: 'Page', revisionid: second.state.revisionid })).state.contents).toBe('two');
  });

  it('restores related pages too, even ones deleted since', async () => {
    await bed.page('WIKI', 'Old Friend');
    const created = await bed.page('WIKI', 'Page', { related: ['Old Friend'] });
    const cleared = await bed.edit('WIKI', 'Page', { related: [] });
    await bed.remove('WIKI', 'Old Friend');
    const reverted = await bed.revertWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', revisionid: cleared.state.revisionid, toRevisionid: created.state.revisionid });
    expect(reverted.state.related).toEqual([{ namespace: 'WIKI', title: 'Old Friend' }]);
    expect(await bed.queries.byRefs(reverted.state.related)).toEqual([]);
  });

  it('keeps a category where it is now', async () => {
    await bed.category('A');
    await bed.category('B');
    const created = await bed.category('Child', 'A', { contents: 'one' });
    const moved = await bed.edit('CATEGORY', 'Child', { parent: 'B', contents: 'two' });
    const reverted = await bed.revertWiki.execute({ editor: wikiAdmin, namespace: 'CATEGORY', title: 'Child', revisionid: moved.state.revisionid, toRevisionid: created.state.revisionid });
    expect(reverted.state.contents).toBe('one');
    expect(reverted.state.parentId).toBe(moved.state.parentId);
  });

  it('refuses an unknown target revision, or one of another page (422)', async () => {
    const other = await bed.page('WIKI', 'Other');
    const page = await bed.page('WIKI', 'Page');
    for (const toRevisionid of [999, other.state.revisionid]) {
      expect(await violationsOf(bed.revertWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', revisionid: page.state.revisionid, toRevisionid }))).toEqual([
        { field: 'to_revisionid', message: 'no such revision of this page' },
      ]);
    }
    expect(bed.wikis.revisionsOf(page.id)).toHaveLength(1);
  });

  it('refuses a stale revision (409), a missing page (404) and non-Admins (403)', async () => {
    const created = await bed.page('WIKI', 'Page', { contents: 'one' });
    const second = await bed.edit('WIKI', 'Page', { contents: 'two' });
    const revert = (editor = wikiAdmin, revisionid = second.state.revisionid, title = 'Page') =>
      bed.revertWiki.execute({ editor, namespace: 'WIKI', title, revisionid, toRevisionid: created.state.revisionid });
    await expect(revert(wikiAdmin, created.state.revisionid)).rejects.toBeInstanceOf(StaleWikiRevisionError);
    await expect(revert(wikiAdmin, second.state.revisionid, 'Nowhere')).rejects.toBeInstanceOf(WikiNotFoundError);
    await expect(revert(wikiUser)).rejects.toBeInstanceOf(WikiEditorRequiredError);
    expect(current(created).state.contents).toBe('two');
  });
});

describe('ViewWiki', () => {
  it('reads the current page by its title in URL form', async () => {
    const page = await bed.page('CATEGORY', 'iPhone 12', { contents: 'x' });
    const read = await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'iPhone_12' });
    expect(read.state).toEqual(page.state);
    expect((await bed.viewWiki.execute({ namespace: 'CATEGORY', title: 'iPhone_12', revisionid: page.state.revisionid })).state).toEqual(page.state);
  });

  it('reads an old revision as it was', async () => {
    await bed.page('WIKI', 'A');
    const created = await bed.page('WIKI', 'Page', { contents: 'one', info: [{ name: 'k', value: 'v' }], related: ['A'] });
    await bed.edit('WIKI', 'Page', { contents: 'two', info: [], related: [] });
    const old = await bed.viewWiki.execute({ namespace: 'WIKI', title: 'Page', revisionid: created.state.revisionid });
    expect(old.state).toEqual(created.state);
    expect(old.state.related).toEqual([{ namespace: 'WIKI', title: 'A' }]);
  });

  it('answers revision not found for an unknown revision or one of another page', async () => {
    const other = await bed.page('WIKI', 'Other');
    await bed.page('WIKI', 'Page');
    for (const revisionid of [999, other.state.revisionid]) {
      await expect(bed.viewWiki.execute({ namespace: 'WIKI', title: 'Page', revisionid })).rejects.toBeInstanceOf(WikiRevisionNotFoundError);
    }
  });

  it('answers not found for unknown, deleted and badly titled pages, and the wrong namespace', async () => {
    const gone = await bed.page('WIKI', 'Gone');
    await bed.remove('WIKI', 'Gone');
    await bed.page('WIKI', 'Only Wiki');
    for (const [namespace, title] of [
      ['WIKI', 'Nowhere'],
      ['WIKI', 'Gone'],
      ['WIKI', 'a|b'],
      ['WIKI', '_'],
      ['CATEGORY', 'Only Wiki'],
    ] as const) {
      await expect(bed.viewWiki.execute({ namespace, title })).rejects.toBeInstanceOf(WikiNotFoundError);
    }
    await expect(bed.viewWiki.execute({ namespace: 'WIKI', title: 'Gone', revisionid: gone.state.revisionid })).rejects.toBeInstanceOf(WikiNotFoundError);
  });
});

describe('TagWiki', () => {
  it('adds a tag (normalising its white space) and removes it; the page is answered each time', async () => {
    const page = await bed.page('WIKI', 'Page');
    const tagged = await bed.tagWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', tag: '  screen   repair ', on: true });
    expect(tagged.id).toBe(page.id);
    expect(await bed.tags.list(page.id)).toEqual(['screen repair']);
    expect(bed.tags.taggedAt(page.id, 'screen repair')).toEqual(bed.clock.now());
    await bed.tagWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', tag: 'screen repair', on: true });
    expect(await bed.tags.list(page.id)).toEqual(['screen repair']);
    await bed.tagWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', tag: 'screen repair', on: false });
    expect(await bed.tags.list(page.id)).toEqual([]);
    // Tags do not make revisions.
    expect(current(page).state.revisionid).toBe(page.state.revisionid);
  });

  it('answers not found when removing a tag the page does not carry', async () => {
    await bed.page('WIKI', 'Page');
    await expect(bed.tagWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', tag: 'never', on: false })).rejects.toMatchObject({ message: 'Tag not found' });
  });

  it('refuses a malformed tag (422)', async () => {
    await bed.page('WIKI', 'Page');
    for (const tag of ['', '   ', '-leading', 'x'.repeat(33), 'semi;colon', 42, null]) {
      expect(await violationsOf(bed.tagWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', tag, on: true }))).toEqual([
        { field: 'tag', message: 'a tag is 1 to 32 letters, digits, spaces or _.:+#-' },
      ]);
    }
    for (const tag of ['device:iPhone', 'C++', 'x'.repeat(32), 'Größe']) await bed.tagWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Page', tag, on: true });
  });

  it('is for Admins only, on live pages', async () => {
    await bed.page('WIKI', 'Page');
    await expect(bed.tagWiki.execute({ editor: wikiUser, namespace: 'WIKI', title: 'Page', tag: 'x', on: true })).rejects.toBeInstanceOf(WikiEditorRequiredError);
    await expect(bed.tagWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Nowhere', tag: 'x', on: true })).rejects.toBeInstanceOf(WikiNotFoundError);
  });
});

// The test bed's images 1-9 are wikiAdmin's, 10-19 otherAdmin's; 500 is no image.
describe('the image a page shows', () => {
  it("takes the editor's own image, and keeps an image the page already shows", async () => {
    const page = await bed.page('WIKI', 'Pictured', { image: 4 });
    expect(page.state.imageId).toBe(4);
    const edited = await bed.editWiki.execute({ editor: otherAdmin, namespace: 'WIKI', title: 'Pictured', revisionid: page.state.revisionid, fields: { image: 4, contents: 'kept' } });
    expect(edited.state.imageId).toBe(4);
  });

  it("refuses another user's image or an unknown id (422 on image), and writes nothing", async () => {
    for (const image of [12, 500]) {
      expect((await violationsOf(bed.createWiki.execute({ editor: wikiAdmin, fields: { namespace: 'WIKI', title: `P${image}`, image } }))).map((v) => v.field)).toEqual(['image']);
    }
    const page = await bed.page('WIKI', 'Plain');
    expect((await violationsOf(bed.editWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Plain', revisionid: page.state.revisionid, fields: { image: 12 } }))).map((v) => v.field)).toEqual(['image']);
    expect(current(page).state.imageId).toBeNull();
    expect(bed.wikis.revisionsOf(page.id)).toEqual([1]);
  });
});

describe('history: WikiHistory, CompareWikiRevisions, summary_of_change', () => {
  async function pageWithThreeRevisions() {
    const page = await bed.createWiki.execute({ editor: wikiAdmin, fields: { namespace: 'WIKI', title: 'Soldering', contents: 'Heat\nthe joint' }, summaryOfChange: 'First' });
    const edited = await bed.editWiki.execute({ editor: otherAdmin, namespace: 'WIKI', title: 'Soldering', revisionid: page.state.revisionid, fields: { contents: 'Heat\nthe pad' } });
    const reverted = await bed.revertWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Soldering', revisionid: edited.state.revisionid, toRevisionid: page.state.revisionid, summaryOfChange: '  Back   to the first ' });
    return { page, edited, reverted };
  }

  it('lists the revisions newest first, paged, with their editor and summary of change', async () => {
    const { page, edited, reverted } = await pageWithThreeRevisions();
    const all = await bed.wikiHistory.execute({ namespace: 'WIKI', title: 'Soldering', page: { limit: 20, offset: 0 } });
    expect(all.map((r) => [r.revisionid, r.editorId, r.summaryOfChange, r.langid])).toEqual([
      [reverted.state.revisionid, wikiAdmin.userId, 'Back to the first', 'en'],
      [edited.state.revisionid, otherAdmin.userId, null, 'en'],
      [page.state.revisionid, wikiAdmin.userId, 'First', 'en'],
    ]);
    expect((await bed.wikiHistory.execute({ namespace: 'WIKI', title: 'Soldering', page: { limit: 1, offset: 1 } })).map((r) => r.revisionid)).toEqual([edited.state.revisionid]);
  });

  it('refuses a summary that is too long (422) before writing', async () => {
    const violations = await violationsOf(bed.createWiki.execute({ editor: wikiAdmin, fields: { namespace: 'WIKI', title: 'Long' }, summaryOfChange: 'x'.repeat(256) }));
    expect(violations.map((v) => v.field)).toEqual(['summary_of_change']);
    expect(await bed.wikis.findByTitle('WIKI', 'Long')).toBeNull();
  });

  it('reads two revisions of the page (the current one too); one of another page is not found', async () => {
    const { page, edited } = await pageWithThreeRevisions();
    const both = await bed.compareWikiRevisions.execute({ namespace: 'WIKI', title: 'Soldering', from: page.state.revisionid, to: edited.state.revisionid });
    expect([both.from.contents, both.to.contents]).toEqual(['Heat\nthe joint', 'Heat\nthe pad']);
    const other = await bed.createWiki.execute({ editor: wikiAdmin, fields: { namespace: 'WIKI', title: 'Other' } });
    await expect(bed.compareWikiRevisions.execute({ namespace: 'WIKI', title: 'Soldering', from: other.state.revisionid, to: edited.state.revisionid })).rejects.toBeInstanceOf(WikiRevisionNotFoundError);
    await expect(bed.wikiHistory.execute({ namespace: 'WIKI', title: 'Missing', page: { limit: 20, offset: 0 } })).rejects.toBeInstanceOf(WikiNotFoundError);
  });
});
