import { RuleViolationError, type Violation } from '@rc/shared-kernel';
import { InvalidWikiError, StaleWikiRevisionError, WikiEditorRequiredError } from '../catalog.errors.js';
import { checkTitle, MAX_RELATED, NAMESPACES, normaliseTitle, WikiPage, type WikiEditor, type WikiId, type WikiInput } from './wiki-page.js';
import { NO_DETAILS } from './wiki-details.js';

const admin: WikiEditor = { userId: 1, isAdmin: true };
const otherAdmin: WikiEditor = { userId: 2, isAdmin: true };
const user: WikiEditor = { userId: 3, isAdmin: false };
const T0 = new Date('2026-01-01T00:00:00Z');
const T1 = new Date('2026-01-02T00:00:00Z');
const T2 = new Date('2026-01-03T00:00:00Z');

const create = (input: WikiInput, parentId: number | null = null, editor = admin) => WikiPage.create(7 as WikiId, editor, input, parentId, T0);
const wiki = (input: WikiInput = {}) => create({ namespace: 'WIKI', title: 'Page', ...input });
const category = (input: WikiInput = {}, parentId: number | null = null) => create({ namespace: 'CATEGORY', title: 'Phone', ...input }, parentId);

/** A page as the repository hands it out: stored under a revision, no pending changes. */
function stored(page: WikiPage, revisionid = 10): WikiPage {
  page.markStored(revisionid);
  return WikiPage.restore(page.state);
}

/** The violations of the InvalidWikiError `fn` throws (fails the test when it throws nothing else). */
function violationsOf(fn: () => unknown): readonly Violation[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidWikiError);
    return (error as InvalidWikiError).violations;
  }
  throw new Error('expected an InvalidWikiError');
}

describe('titles', () => {
  it('are stored with spaces: underscores and runs of white space become one space, trimmed', () => {
    expect(normaliseTitle('iPhone_12')).toBe('iPhone 12');
    expect(normaliseTitle('  MacBook__Pro \t 13"  ')).toBe('MacBook Pro 13"');
    expect(normaliseTitle('v1.2.3_Notes')).toBe('v1.2.3 Notes');
  });

  it('accept dots, quotes, colons and non-Latin letters', () => {
    for (const title of ['v1.2.3 Notes', 'MacBook Pro 13" 2020', 'Topic: Batteries', 'Fernseher Größe', '手机']) expect(checkTitle(title)).toEqual({ title });
  });

  it('refuse characters that would break a URL segment or markup, and control characters', () => {
    for (const title of ['a/b', 'a#b', 'a?b', '100%', '<b>', 'a[b]', '{x}', 'a|b', 'a\\b', 'tab\u0000', 'bell\u0007', 'del\u007f']) {
      expect(checkTitle(title).problem).toMatch(/may not contain/);
    }
  });

  it('must be a non-empty string of at most 255 characters (counted as code points)', () => {
    expect(checkTitle(42).problem).toBe('title must be a string');
    expect(checkTitle(undefined).problem).toBe('title must be a string');
    expect(checkTitle('').problem).toBe('title is required');
    expect(checkTitle(' _ _ ').problem).toBe('title is required');
    expect(checkTitle('x'.repeat(255))).toEqual({ title: 'x'.repeat(255) });
    expect(checkTitle('x'.repeat(256)).problem).toMatch(/at most 255/);
    expect(checkTitle('😀'.repeat(255))).toEqual({ title: '😀'.repeat(255) });
  });
});

describe('WikiPage.create', () => {
  it('makes a page of any namespace with defaults, by its Admin author, not yet stored', () => {
    for (const namespace of NAMESPACES.filter((n) => n !== 'USER' && n !== 'TEAM')) {
      const page = create({ namespace, title: 'Some_Title' });
      expect(page.state).toEqual({
        id: 7,
        namespace,
        title: 'Some Title',
        displayTitle: 'Some Title',
        parentId: null,
        description: '',
        contents: '',
        imageId: null,
        flags: [],
        info: [],
        related: [],
        details: NO_DETAILS,
        revisionid: 0,
        authorId: admin.userId,
        langid: 'en',
        createdAt: T0,
        modifiedAt: T0,
        deletedAt: null,
      });
      expect(page.hasChanges).toBe(true);
      expect(page.editedBy).toBe(admin.userId);
      expect(page.isDeleted).toBe(false);
    }
  });

  it('keeps every write field', () => {
    const page = category(
      {
        display_title: '  The Phone  ',
        description: 'Phones and smartphones.',
        contents: "== Models ==\n'''Many'''.",
        image: 1001,
        flags: ['STUB', 'NEEDS_IMAGES', 'STUB'],
        info: [{ name: 'Released', value: '2020' }],
        related: ['Tablet', { namespace: 'wiki', title: 'Battery_Safety' }],
      },
      3,
    );
    expect(page.state).toMatchObject({
      displayTitle: 'The Phone',
      description: 'Phones and smartphones.',
      contents: "== Models ==\n'''Many'''.",
      imageId: 1001,
      flags: ['STUB', 'NEEDS_IMAGES'],
      info: [{ name: 'Released', value: '2020' }],
      related: [
        { namespace: 'CATEGORY', title: 'Tablet' },
        { namespace: 'WIKI', title: 'Battery Safety' },
      ],
      parentId: 3,
    });
  });

  it('reads null texts as empty and an empty display title as the title', () => {
    const page = wiki({ description: null, contents: null, display_title: '   ' });
    expect(page.state).toMatchObject({ description: '', contents: '', displayTitle: 'Page' });
  });

  it('gives a parent to CATEGORY pages only', () => {
    expect(category({}, 5).state.parentId).toBe(5);
    expect(violationsOf(() => wiki({ parent: 'Phone' }))).toEqual([{ field: 'parent', message: 'only CATEGORY pages have a parent' }]);
    // A resolved parent id is ignored for other namespaces; parent null is accepted anywhere.
    expect(create({ namespace: 'ITEM', title: 'Spudger', parent: null }, 5).state.parentId).toBeNull();
  });

  it('is for Admins only', () => {
    expect(() => create({ namespace: 'WIKI', title: 'Page' }, null, user)).toThrow(WikiEditorRequiredError);
    const error = new WikiEditorRequiredError();
    expect(error.requiredPrivileges).toEqual(['Admin']);
  });

  it('reports every broken rule at once, as a rule violation (422)', () => {
    const violations = violationsOf(() =>
      create({ namespace: 'PEOPLE', title: 'a/b', description: 5, contents: 'x'.repeat(262_145), image: 0, flags: ['lower'], info: 'none', related: 'Page' }),
    );
    expect(violations.map((v) => v.field)).toEqual(['namespace', 'title', 'description', 'contents', 'image', 'flags', 'info', 'related']);
    expect(new InvalidWikiError(violations)).toBeInstanceOf(RuleViolationError);
    expect(violations[0]!.message).toBe('namespace must be one of CATEGORY, WIKI, INFO, ITEM, USER, TEAM');
  });

  it('validates texts: strings within their limits', () => {
    expect(violationsOf(() => wiki({ display_title: 'x'.repeat(256) }))).toEqual([{ field: 'display_title', message: 'display_title must be at most 255 characters' }]);
    expect(violationsOf(() => wiki({ description: 'x'.repeat(2001) }))).toEqual([{ field: 'description', message: 'description must be at most 2000 characters' }]);
    expect(wiki({ description: 'x'.repeat(2000), contents: 'y'.repeat(262_144) }).state.description).toHaveLength(2000);
    expect(violationsOf(() => wiki({ contents: ['a'] }))).toEqual([{ field: 'contents', message: 'contents must be a string' }]);
  });

  it('validates the image: a positive integer id or null', () => {
    expect(wiki({ image: null }).state.imageId).toBeNull();
    for (const image of [-1, 0, 1.5, '12', true, 2 ** 40]) expect(violationsOf(() => wiki({ image }))[0]!.field).toBe('image');
  });

  it('validates flags: a list of upper-case ids, repeats dropped', () => {
    expect(wiki({ flags: [] }).state.flags).toEqual([]);
    for (const flags of ['STUB', [1], ['stub'], ['WITH SPACE'], ['X'.repeat(65)], [null]]) expect(violationsOf(() => wiki({ flags }))[0]!.field).toBe('flags');
  });

  it('validates info rows: at most 50 {name, value} string pairs, no other keys; long values are cut', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ name: `n${i}`, value: `v${i}` }));
    expect(wiki({ info: rows }).state.info).toHaveLength(50);
    for (const info of [[...rows, { name: 'x', value: 'y' }], [{ name: 'x' }], [{ name: 'x', value: 1 }], [{ name: 'x', value: 'y', extra: 1 }], [null], {}]) {
      expect(violationsOf(() => wiki({ info }))).toEqual([{ field: 'info', message: 'info must be a list of at most 50 {name, value} rows' }]);
    }
    const long = wiki({ info: [{ name: 'n'.repeat(300), value: 'v'.repeat(3000) }] }).state.info[0]!;
    expect([long.name.length, long.value.length]).toEqual([255, 2000]);
  });
});

describe('related pages', () => {
  it('are titles of the page\'s own namespace or {namespace, title} objects, normalised, repeats dropped, order kept', () => {
    const page = wiki({ related: ['Battery_Safety', { namespace: 'CATEGORY', title: 'iPhone 12' }, ' Battery  Safety ', { namespace: 'item', title: 'Spudger' }, { title: 'Tools', namespace: 'WIKI' }] });
    expect(page.state.related).toEqual([
      { namespace: 'WIKI', title: 'Battery Safety' },
      { namespace: 'CATEGORY', title: 'iPhone 12' },
      { namespace: 'ITEM', title: 'Spudger' },
      { namespace: 'WIKI', title: 'Tools' },
    ]);
  });

  it('null or [] clears them', () => {
    expect(wiki({ related: null }).state.related).toEqual([]);
    expect(wiki({ related: [] }).state.related).toEqual([]);
  });

  it(`are at most ${MAX_RELATED}`, () => {
    const many = Array.from({ length: MAX_RELATED + 1 }, (_, i) => `Page ${i}`);
    expect(wiki({ related: many.slice(0, MAX_RELATED) }).state.related).toHaveLength(MAX_RELATED);
    expect(violationsOf(() => wiki({ related: many }))).toEqual([{ field: 'related', message: `related must be a list of at most ${MAX_RELATED} page titles` }]);
  });

  it('report each bad item with its index', () => {
    const violations = violationsOf(() => wiki({ related: ['Fine', 42, { namespace: 'PEOPLE', title: 'x' }, { title: 'x', extra: 1 }, 'a|b', { namespace: 'WIKI' }, ['x']] }));
    expect(violations).toEqual([
      { field: 'related', index: 1, message: 'each related page is a title or a {namespace, title} object' },
      { field: 'related', index: 2, message: 'namespace must be one of CATEGORY, WIKI, INFO, ITEM, USER, TEAM' },
      { field: 'related', index: 3, message: "unknown field 'extra'" },
      { field: 'related', index: 4, message: expect.stringMatching(/may not contain/) },
      { field: 'related', index: 5, message: 'title must be a string' },
      { field: 'related', index: 6, message: 'each related page is a title or a {namespace, title} object' },
    ]);
  });

  it('may not name the page itself (but may name the same title in another namespace)', () => {
    expect(violationsOf(() => wiki({ related: ['Page'] }))).toEqual([{ field: 'related', message: 'a page cannot be related to itself' }]);
    expect(violationsOf(() => wiki({ related: [{ namespace: 'WIKI', title: 'Page' }] }))[0]!.field).toBe('related');
    expect(wiki({ related: [{ namespace: 'CATEGORY', title: 'Page' }] }).state.related).toEqual([{ namespace: 'CATEGORY', title: 'Page' }]);
    const page = stored(wiki());
    expect(violationsOf(() => page.edit(admin, { related: ['Other', 'Page'] }, undefined, T1))).toEqual([{ field: 'related', message: 'a page cannot be related to itself' }]);
  });
});

describe('WikiPage.edit', () => {
  it('changes the fields sent, as a change by the editor at that time', () => {
    const page = stored(category({ description: 'Old', info: [{ name: 'a', value: 'b' }] }, 3));
    page.edit(otherAdmin, { description: 'New', contents: 'Body', flags: ['STUB'], related: ['Tablet'] }, undefined, T1);
    expect(page.state).toMatchObject({ description: 'New', contents: 'Body', flags: ['STUB'], related: [{ namespace: 'CATEGORY', title: 'Tablet' }], info: [{ name: 'a', value: 'b' }], parentId: 3 });
    expect(page.state.modifiedAt).toEqual(T1);
    expect(page.state.createdAt).toEqual(T0);
    expect(page.state.authorId).toBe(admin.userId);
    expect(page.editedBy).toBe(otherAdmin.userId);
    expect(page.hasChanges).toBe(true);
    expect(page.state.revisionid).toBe(10);
  });

  it('is a no-op, keeping the revision and the modified date, when nothing differs', () => {
    const page = stored(wiki({ description: 'Same', info: [{ name: 'a', value: 'b' }], related: ['Other'], image: 5 }));
    page.edit(otherAdmin, { description: 'Same', info: [{ name: 'a', value: 'b' }], related: [{ namespace: 'WIKI', title: 'Other' }], image: 5, display_title: 'Page' }, undefined, T1);
    expect(page.hasChanges).toBe(false);
    expect(page.state.modifiedAt).toEqual(T0);
    expect(page.editedBy).toBe(admin.userId);
    page.edit(otherAdmin, {}, undefined, T1);
    expect(page.hasChanges).toBe(false);
  });

  it('compares structured fields whatever the order of their keys (as read back from JSON storage)', () => {
    const original = wiki({ info: [{ name: 'a', value: 'b' }], related: ['Other'] });
    original.markStored(10);
    // jsonb hands objects back with their keys sorted by length: {title, namespace}.
    const reordered = WikiPage.restore({
      ...original.state,
      info: [{ value: 'b', name: 'a' }],
      related: [{ title: 'Other', namespace: 'WIKI' } as unknown as { namespace: 'WIKI'; title: string }],
    });
    reordered.edit(admin, { info: [{ name: 'a', value: 'b' }], related: ['Other'] }, undefined, T1);
    expect(reordered.hasChanges).toBe(false);
  });

  it('resets an empty display title to the title', () => {
    const page = stored(wiki({ display_title: 'Shown' }));
    page.edit(admin, { display_title: '' }, undefined, T1);
    expect(page.state.displayTitle).toBe('Page');
  });

  it('moves a category to the parent the caller resolved; null makes it a root; undefined leaves it', () => {
    const page = stored(category({}, 3));
    page.edit(admin, { parent: 'Elsewhere' }, 4, T1);
    expect(page.state.parentId).toBe(4);
    page.edit(admin, { description: 'x' }, undefined, T1);
    expect(page.state.parentId).toBe(4);
    page.edit(admin, { parent: null }, null, T2);
    expect(page.state.parentId).toBeNull();
  });

  it('refuses a category as its own parent, and a parent on other namespaces', () => {
    const cat = stored(category());
    expect(violationsOf(() => cat.edit(admin, { parent: 'Phone' }, cat.id, T1))).toEqual([{ field: 'parent', message: 'a category cannot be its own parent' }]);
    const page = stored(wiki());
    expect(violationsOf(() => page.edit(admin, { parent: null }, undefined, T1))).toEqual([{ field: 'parent', message: 'only CATEGORY pages have a parent' }]);
  });

  it('changes nothing when any field is invalid', () => {
    const page = stored(wiki({ description: 'Old' }));
    violationsOf(() => page.edit(admin, { description: 'New', flags: 'bad' }, undefined, T1));
    expect(page.state.description).toBe('Old');
    expect(page.hasChanges).toBe(false);
  });

  it('is for Admins only, and not on a deleted page', () => {
    const page = stored(wiki());
    expect(() => page.edit(user, { contents: 'x' }, undefined, T1)).toThrow(WikiEditorRequiredError);
    page.delete(admin, T1);
    expect(() => page.edit(admin, { contents: 'x' }, undefined, T2)).toThrow(WikiEditorRequiredError);
  });
});

describe('revisions', () => {
  it('assertRevision accepts the current revision and refuses any other with a conflict naming the page', () => {
    const page = stored(category(), 42);
    expect(() => page.assertRevision(42)).not.toThrow();
    let error: unknown;
    try {
      page.assertRevision(41);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StaleWikiRevisionError);
    expect(error).toMatchObject({ namespace: 'CATEGORY', title: 'Phone' });
  });

  it('markStored sets the revision and clears the pending change', () => {
    const page = wiki();
    page.markStored(5);
    expect(page.state.revisionid).toBe(5);
    expect(page.hasChanges).toBe(false);
  });
});

describe('soft delete', () => {
  it('marks the page deleted as a change; it can no longer be edited', () => {
    const page = stored(wiki());
    expect(page.canEdit(admin)).toBe(true);
    page.delete(otherAdmin, T1);
    expect(page.isDeleted).toBe(true);
    expect(page.state.deletedAt).toEqual(T1);
    expect(page.state.modifiedAt).toEqual(T1);
    expect(page.hasChanges).toBe(true);
    expect(page.editedBy).toBe(otherAdmin.userId);
    expect(page.canEdit(admin)).toBe(false);
    expect(() => page.delete(admin, T2)).toThrow(WikiEditorRequiredError);
  });

  it('is for Admins only', () => {
    expect(() => stored(wiki()).delete(user, T1)).toThrow(WikiEditorRequiredError);
  });
});

describe('revert', () => {
  it('restores the content of an old state as a change, keeping the tree position and identity', () => {
    const page = stored(category({ description: 'v1', contents: 'one', flags: ['STUB'], info: [{ name: 'a', value: '1' }], related: ['Tablet'], image: 3 }, 5), 10);
    const old = { ...page.state };
    page.edit(admin, { description: 'v2', contents: 'two', flags: [], info: [], related: [], image: null, display_title: 'Changed' }, 6, T1);
    page.markStored(11);
    page.revertTo(otherAdmin, old, T2);
    expect(page.state).toMatchObject({
      description: 'v1',
      contents: 'one',
      flags: ['STUB'],
      info: [{ name: 'a', value: '1' }],
      related: [{ namespace: 'CATEGORY', title: 'Tablet' }],
      imageId: 3,
      displayTitle: 'Phone',
      parentId: 6,
      revisionid: 11,
      modifiedAt: T2,
      createdAt: T0,
      deletedAt: null,
    });
    expect(page.hasChanges).toBe(true);
    expect(page.editedBy).toBe(otherAdmin.userId);
  });

  it('is for Admins only', () => {
    const page = stored(wiki());
    expect(() => page.revertTo(user, page.state, T1)).toThrow(WikiEditorRequiredError);
  });
});

describe('canEdit', () => {
  it('is true for an Admin on a live page only', () => {
    const page = stored(wiki());
    expect(page.canEdit(admin)).toBe(true);
    expect(page.canEdit(user)).toBe(false);
    expect(page.canEdit(null)).toBe(false);
  });
});
