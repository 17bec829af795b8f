import { PermissionDeniedError, RuleViolationError } from '@rc/shared-kernel';
import { InvalidGuideError, NotGuideEditorError, StaleGuideRevisionError, StaleStepRevisionError, StepNotFoundError } from '../guides.errors.js';
import { admin, author, other, thrownBy } from '../testing/index.js';
import { DIFFICULTIES, GUIDE_TYPES } from './guide-vocabulary.js';
import { Guide, type GuideId, type GuideInput, type GuideState } from './guide.js';
import type { StepState } from './step.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const T1 = new Date('2026-01-02T00:00:00Z');
const ID = 5 as GuideId;
const BASE: GuideInput = { category: 'iPhone 12', type: 'replacement', subject: 'Battery' };

const create = (input: GuideInput = {}, editor = author) => Guide.create(ID, editor, { ...BASE, ...input }, T0);
const violationsOf = (fn: () => unknown) => {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(InvalidGuideError);
  return (error as InvalidGuideError).violations;
};
const fieldsOf = (fn: () => unknown) => violationsOf(fn).map((v) => v.field);

/** A guide as loaded from storage: no pending changes. */
function stored(input: GuideInput = {}, steps: StepState[] = [], extra: Partial<GuideState> = {}): Guide {
  const guide = create(input);
  return Guide.restore({ ...guide.state, revisionid: 10, ...extra }, steps);
}

const stepState = (id: number, orderby: number, text = `Step ${id}`): StepState => ({
  id,
  orderby,
  revisionid: 100 + id,
  title: '',
  lines: [{ lineid: 0, text, bullet: 'black', level: 0 }],
  media: { type: 'none' },
});
const lines = (text: string) => [{ text, bullet: 'black', level: 0 }];

describe('document and intro-video fields', () => {
  const editor = { userId: 1, isAdmin: false };
  const make = (input: Record<string, unknown>) => Guide.create(9 as GuideId, editor, { category: 'Phone', type: 'repair', ...input }, new Date('2026-01-01T00:00:00Z'));

  it('keeps documents (each once, in order), the featured document and the intro video; null clears', () => {
    const guide = make({ documents: [3, 2, 3], featured_documentid: 2, objectid: 8 });
    expect([guide.state.documentIds, guide.state.featuredDocumentId, guide.state.introObjectId]).toEqual([[3, 2], 2, 8]);
    guide.edit(editor, { documents: null, featured_documentid: null, objectid: null }, new Date('2026-01-02T00:00:00Z'));
    expect([guide.state.documentIds, guide.state.featuredDocumentId, guide.state.introObjectId]).toEqual([[], null, null]);
  });

  it('refuses what is not a list of ids or an id, one violation per field', () => {
    try {
      make({ documents: [1, 'x'], featured_documentid: 0, objectid: 'v' });
      throw new Error('accepted');
    } catch (error) {
      expect((error as InvalidGuideError).violations.map((v) => v.field)).toEqual(['documents', 'featured_documentid', 'objectid']);
    }
    expect(() => make({ documents: Array.from({ length: 101 }, (_, i) => i + 1) })).toThrow(InvalidGuideError);
  });
});

describe('Guide.create', () => {
  it('makes a private guide with defaults, owned by its author', () => {
    const guide = create();
    expect(guide.state).toEqual({
      id: ID,
      revisionid: 0,
      authorId: author.userId,
      contributorIds: [author.userId],
      title: 'iPhone 12 Battery Replacement',
      category: 'iPhone 12',
      subject: 'Battery',
      type: 'replacement',
      difficulty: null,
      summary: '',
      introduction: '',
      conclusion: '',
      timeRequiredMin: 0,
      timeRequiredMax: 0,
      imageId: null,
      parts: [],
      tools: [],
      prerequisites: [],
      flags: [],
      documentIds: [],
      featuredDocumentId: null,
      introObjectId: null,
      isPublic: false,
      locale: 'en',
      createdAt: T0,
      modifiedAt: T0,
      publishedAt: null,
      deletedAt: null,
    });
    expect(guide.steps).toEqual([]);
    expect(guide.hasChanges).toBe(true);
  });

  it('requires category and type, reporting both at once', () => {
    const violations = violationsOf(() => Guide.create(ID, author, {}, T0));
    expect(violations.map((v) => v.field).sort()).toEqual(['category', 'type']);
  });

  it('refuses a blank category', () => {
    expect(fieldsOf(() => create({ category: '   ' }))).toEqual(['category']);
  });

  it.each(GUIDE_TYPES.map((t) => [t]))('accepts the type %s', (type) => {
    expect(create({ type }).state.type).toBe(type);
  });

  it.each([['Replacement'], ['fix'], [3], [null]])('refuses the type %j', (type) => {
    expect(fieldsOf(() => create({ type }))).toEqual(['type']);
  });

  it('makes the default title of type, category and subject', () => {
    expect(create().state.title).toBe('iPhone 12 Battery Replacement');
    expect(create({ subject: undefined }).state.title).toBe('iPhone 12 Replacement');
    expect(create({ type: 'teardown', category: 'MacBook Pro', subject: null }).state.title).toBe('MacBook Pro Teardown');
    expect(create({ title: '  My title  ' }).state.title).toBe('My title');
    expect(create({ title: '' }).state.title).toBe('iPhone 12 Battery Replacement');
  });

  it.each(DIFFICULTIES.map((d) => [d]))('accepts the difficulty %s', (difficulty) => {
    expect(create({ difficulty }).state.difficulty).toBe(difficulty);
  });

  it('takes a null or empty difficulty as none and refuses others', () => {
    expect(create({ difficulty: null }).state.difficulty).toBeNull();
    expect(create({ difficulty: '' }).state.difficulty).toBeNull();
    expect(fieldsOf(() => create({ difficulty: 'Hard' }))).toEqual(['difficulty']);
    expect(fieldsOf(() => create({ difficulty: 'easy' }))).toEqual(['difficulty']);
  });

  it('accepts a summary of at most 156 characters', () => {
    expect(create({ summary: 'x'.repeat(156) }).state.summary).toHaveLength(156);
    expect(create({ summary: 'é'.repeat(156) }).state.summary).toHaveLength(156);
    expect(fieldsOf(() => create({ summary: 'x'.repeat(157) }))).toEqual(['summary']);
  });

  it('refuses text fields that are not strings and a title over 255 characters', () => {
    expect(fieldsOf(() => create({ introduction: 5, conclusion: {}, title: 'x'.repeat(256) })).sort()).toEqual(['conclusion', 'introduction', 'title']);
  });

  it('sets publishedAt when created public', () => {
    const guide = create({ public: true });
    expect(guide.state.isPublic).toBe(true);
    expect(guide.state.publishedAt).toEqual(T0);
    expect(fieldsOf(() => create({ public: 'yes' }))).toEqual(['public']);
  });

  it('keeps the times required, min not above max', () => {
    expect(create({ time_required_min: 600, time_required_max: 1800 }).state).toMatchObject({ timeRequiredMin: 600, timeRequiredMax: 1800 });
    expect(create({ time_required_min: 1800, time_required_max: 1800 }).state).toMatchObject({ timeRequiredMin: 1800, timeRequiredMax: 1800 });
    expect(violationsOf(() => create({ time_required_min: 1801, time_required_max: 1800 }))).toEqual([expect.objectContaining({ field: 'time_required_min' })]);
    expect(fieldsOf(() => create({ time_required_max: -1 }))).toEqual(['time_required_max']);
    expect(fieldsOf(() => create({ time_required_min: 1.5 }))).toEqual(['time_required_min']);
  });

  it('accepts the human time_required text and ignores it', () => {
    expect(create({ time_required: 'forever' }).state).toMatchObject({ timeRequiredMin: 0, timeRequiredMax: 0 });
  });

  it('takes a two-letter langid as the locale', () => {
    expect(create({ langid: 'fr' }).state.locale).toBe('fr');
    expect(create({ langid: 'french' }).state.locale).toBe('en');
  });

  it('accepts an image id or null', () => {
    expect(create({ image: 8 }).state.imageId).toBe(8);
    expect(create({ image: null }).state.imageId).toBeNull();
    expect(fieldsOf(() => create({ image: 0 }))).toEqual(['image']);
  });

  it('keeps prerequisites once each and refuses bad ones', () => {
    expect(create({ prerequisites: [3, 4, 3] }).state.prerequisites).toEqual([3, 4]);
    expect(fieldsOf(() => create({ prerequisites: [0] }))).toEqual(['prerequisites']);
    expect(fieldsOf(() => create({ prerequisites: 3 }))).toEqual(['prerequisites']);
    expect(fieldsOf(() => create({ prerequisites: Array.from({ length: 21 }, (_, i) => i + 1) }))).toEqual(['prerequisites']);
  });

  describe('flags', () => {
    it('accepts known flags, once each', () => {
      expect(create({ flags: ['GUIDE_IN_PROGRESS', 'GUIDE_PREREQ_ONLY', 'GUIDE_IN_PROGRESS'] }).state.flags).toEqual(['GUIDE_IN_PROGRESS', 'GUIDE_PREREQ_ONLY']);
    });

    it('refuses an unknown flag', () => {
      expect(violationsOf(() => create({ flags: ['GUIDE_MADE_UP'] }))).toEqual([{ field: 'flags', message: expect.stringContaining('GUIDE_MADE_UP') }]);
      expect(fieldsOf(() => create({ flags: 'GUIDE_IN_PROGRESS' }))).toEqual(['flags']);
    });

    it('refuses a privileged flag from a non-admin and accepts it from an admin', () => {
      expect(violationsOf(() => create({ flags: ['GUIDE_STARRED'] }))).toEqual([{ field: 'flags', message: expect.stringContaining('Admin') }]);
      expect(fieldsOf(() => create({ flags: ['GUIDE_ARCHIVED'] }))).toEqual(['flags']);
      expect(create({ flags: ['GUIDE_STARRED'] }, admin).state.flags).toEqual(['GUIDE_STARRED']);
    });
  });

  describe('parts and tools', () => {
    it('reads items, with quantity 1 by default', () => {
      const guide = create({
        parts: [{ name: 'Battery', quantity: 2, url: 'https://shop.example.com/battery', notes: 'new', type: 'part', isoptional: true }],
        tools: [{ text: 'Spudger' }, { name: 'Driver', url: '/Item/Driver' }],
      });
      expect(guide.state.parts).toEqual([{ text: 'Battery', type: 'part', quantity: 2, notes: 'new', url: 'https://shop.example.com/battery', thumbnail: null, isoptional: true, featured: false }]);
      expect(guide.state.tools.map((t) => [t.text, t.quantity, t.url])).toEqual([
        ['Spudger', 1, null],
        ['Driver', 1, '/Item/Driver'],
      ]);
    });

    it('requires a name', () => {
      expect(violationsOf(() => create({ parts: [{ quantity: 1 }] }))).toEqual([expect.objectContaining({ field: 'parts', index: 0 })]);
      expect(violationsOf(() => create({ tools: [{ name: '  ' }] }))).toEqual([expect.objectContaining({ field: 'tools', index: 0 })]);
    });

    it.each([[0], [-1], [1.5], ['2']])('refuses the quantity %j', (quantity) => {
      expect(violationsOf(() => create({ parts: [{ name: 'A' }, { name: 'B', quantity }] }))).toEqual([{ field: 'parts', index: 1, message: expect.stringContaining('quantity') }]);
    });

    it.each([['http://example.com/x'], ['https://example.com'], ['/Item/Spudger']])('accepts the url %s', (url) => {
      expect(create({ tools: [{ name: 'A', url }] }).state.tools[0]?.url).toBe(url);
    });

    it.each([['javascript:alert(1)'], ['ftp://example.com'], ['//evil.example.com'], ['example.com'], ['https://exa mple.com'], [5]])('refuses the url %j', (url) => {
      expect(violationsOf(() => create({ tools: [{ name: 'A', url }] }))).toEqual([{ field: 'tools', index: 0, message: expect.stringContaining('url') }]);
    });

    it('refuses an unknown item field, naming it', () => {
      expect(violationsOf(() => create({ parts: [{ name: 'A', price: 3 }] }))).toEqual([{ field: 'parts', index: 0, message: expect.stringContaining("'price'") }]);
    });

    it('reports every bad item with its index, for parts and tools at once', () => {
      const violations = violationsOf(() => create({ parts: [{ name: 'ok' }, {}, { name: 'ok' }, 'text'], tools: [{ name: 'x', featured: 'yes' }] }));
      expect(violations.map((v) => [v.field, v.index])).toEqual([
        ['parts', 1],
        ['parts', 3],
        ['tools', 0],
      ]);
    });

    it('refuses more than 100 items, or no list', () => {
      expect(fieldsOf(() => create({ parts: Array.from({ length: 101 }, () => ({ name: 'x' })) }))).toEqual(['parts']);
      expect(fieldsOf(() => create({ tools: { name: 'x' } }))).toEqual(['tools']);
    });
  });
});

describe('Guide permissions', () => {
  it('lets the author and admins edit; others get NotGuideEditorError, a permission error', () => {
    const guide = stored();
    expect(guide.canEdit(author)).toBe(true);
    expect(guide.canEdit(admin)).toBe(true);
    expect(guide.canEdit(other)).toBe(false);
    expect(guide.canEdit(null)).toBe(false);
    const error = thrownBy(() => guide.edit(other, { title: 'Mine now' }, T1));
    expect(error).toBeInstanceOf(NotGuideEditorError);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(guide.state.title).toBe('iPhone 12 Battery Replacement');
    expect(guide.hasChanges).toBe(false);
  });

  it('shows a private guide to its author and admins only, a public one to all', () => {
    const privateGuide = stored();
    expect([privateGuide.canView(author), privateGuide.canView(admin), privateGuide.canView(other), privateGuide.canView(null)]).toEqual([true, true, false, false]);
    const publicGuide = stored({ public: true });
    expect([publicGuide.canView(other), publicGuide.canView(null)]).toEqual([true, true]);
  });

  it('hides and locks a deleted guide', () => {
    const guide = stored({ public: true }, [], { deletedAt: T1 });
    expect(guide.isDeleted).toBe(true);
    expect(guide.canView(null)).toBe(false);
    expect(guide.canEdit(admin)).toBe(false);
  });

  it('checks the revision the caller saw', () => {
    const guide = stored();
    expect(() => guide.assertRevision(10)).not.toThrow();
    const error = thrownBy(() => guide.assertRevision(9));
    expect(error).toBeInstanceOf(StaleGuideRevisionError);
    expect(error).toMatchObject({ guideId: ID });
  });
});

describe('Guide.edit', () => {
  it('applies the given fields, records the editor and the time', () => {
    const guide = stored();
    guide.edit(admin, { title: 'New title', difficulty: 'Easy' }, T1);
    expect(guide.state).toMatchObject({ title: 'New title', difficulty: 'Easy', subject: 'Battery', modifiedAt: T1, contributorIds: [author.userId, admin.userId] });
    expect(guide.hasChanges).toBe(true);
    expect(guide.editedBy).toBe(admin.userId);
  });

  it('is a no-op when the values are the same', () => {
    const guide = stored({ difficulty: 'Easy', parts: [{ name: 'Battery' }], flags: ['GUIDE_IN_PROGRESS'], prerequisites: [2, 3], time_required_min: 60, time_required_max: 120 });
    guide.edit(
      author,
      {
        title: 'iPhone 12 Battery Replacement',
        category: 'iPhone 12',
        subject: 'Battery',
        type: 'replacement',
        difficulty: 'Easy',
        summary: '',
        parts: [{ name: 'Battery' }],
        tools: [],
        flags: ['GUIDE_IN_PROGRESS'],
        prerequisites: [2, 3],
        time_required_min: 60,
        time_required_max: 120,
        public: false,
      },
      T1,
    );
    guide.edit(author, {}, T1);
    expect(guide.hasChanges).toBe(false);
    expect(guide.state.modifiedAt).toEqual(T0);
  });

  it('keeps the title when given an empty one', () => {
    const guide = stored();
    guide.edit(author, { title: '' }, T1);
    guide.edit(author, { title: null }, T1);
    expect(guide.state.title).toBe('iPhone 12 Battery Replacement');
    expect(guide.hasChanges).toBe(false);
  });

  it('sets hasChanges when one field changes', () => {
    const guide = stored();
    guide.edit(author, { summary: 'Replace the battery' }, T1);
    expect(guide.hasChanges).toBe(true);
    expect(guide.state.summary).toBe('Replace the battery');
  });

  it('clears the difficulty with null or an empty string', () => {
    const guide = stored({ difficulty: 'Moderate' });
    guide.edit(author, { difficulty: '' }, T1);
    expect(guide.state.difficulty).toBeNull();
    const again = stored({ difficulty: 'Moderate' });
    again.edit(author, { difficulty: null }, T1);
    expect(again.state.difficulty).toBeNull();
  });

  it('refuses bad fields without changing anything', () => {
    const guide = stored();
    expect(fieldsOf(() => guide.edit(author, { title: 'Fine', type: 'nope', summary: 'x'.repeat(157) }, T1)).sort()).toEqual(['summary', 'type']);
    expect(guide.state.title).toBe('iPhone 12 Battery Replacement');
    expect(guide.hasChanges).toBe(false);
  });

  it('checks time_required_min against the stored max', () => {
    const guide = stored({ time_required_min: 600, time_required_max: 1800 });
    expect(violationsOf(() => guide.edit(author, { time_required_min: 3600 }, T1))).toEqual([expect.objectContaining({ field: 'time_required_min' })]);
    expect(violationsOf(() => guide.edit(author, { time_required_max: 300 }, T1))).toEqual([expect.objectContaining({ field: 'time_required_min' })]);
    guide.edit(author, { time_required_min: 3600, time_required_max: 7200 }, T1);
    expect(guide.state).toMatchObject({ timeRequiredMin: 3600, timeRequiredMax: 7200 });
  });

  it('refuses to make the guide its own prerequisite', () => {
    const guide = stored();
    expect(violationsOf(() => guide.edit(author, { prerequisites: [3, ID] }, T1))).toEqual([{ field: 'prerequisites', message: expect.stringContaining('own prerequisite') }]);
    expect(guide.state.prerequisites).toEqual([]);
  });

  it('sets publishedAt the first time it is made public through edit', () => {
    const guide = stored();
    guide.edit(author, { public: true }, T1);
    expect(guide.state).toMatchObject({ isPublic: true, publishedAt: T1 });
  });

  describe('flags', () => {
    it('keeps the privileged flags already set when a non-admin replaces the flags', () => {
      const guide = stored({}, [], { flags: ['GUIDE_STARRED', 'GUIDE_IN_PROGRESS'] });
      guide.edit(author, { flags: ['GUIDE_PREREQ_ONLY'] }, T1);
      expect(guide.state.flags).toEqual(['GUIDE_PREREQ_ONLY', 'GUIDE_STARRED']);
    });

    it('lets a non-admin clear the ordinary flags only', () => {
      const guide = stored({}, [], { flags: ['GUIDE_STARRED', 'GUIDE_IN_PROGRESS'] });
      guide.edit(author, { flags: [] }, T1);
      expect(guide.state.flags).toEqual(['GUIDE_STARRED']);
    });

    it('lets a non-admin resend a privileged flag already set', () => {
      const guide = stored({}, [], { flags: ['GUIDE_STARRED'] });
      guide.edit(author, { flags: ['GUIDE_STARRED'] }, T1);
      expect(guide.hasChanges).toBe(false);
    });

    it('refuses a privileged flag a non-admin adds', () => {
      const guide = stored();
      expect(fieldsOf(() => guide.edit(author, { flags: ['GUIDE_ARCHIVED'] }, T1))).toEqual(['flags']);
    });

    it('lets an admin set and clear privileged flags', () => {
      const guide = stored({}, [], { flags: ['GUIDE_STARRED'] });
      guide.edit(admin, { flags: ['GUIDE_ARCHIVED'] }, T1);
      expect(guide.state.flags).toEqual(['GUIDE_ARCHIVED']);
    });
  });
});

describe('no-op edits compare values, not the key order of stored JSON', () => {
  it('a part resent as stored (keys in another order, as jsonb returns them) changes nothing', () => {
    const part = { text: 'Battery', type: '', quantity: 1, notes: null, url: null, thumbnail: null, isoptional: false, featured: false };
    const reordered = Object.fromEntries(Object.entries(part).reverse()) as unknown as typeof part;
    const guide = Guide.restore({ ...create().state, revisionid: 10, parts: [reordered] }, []);
    guide.edit(author, { parts: [{ name: 'Battery' }] }, T1);
    expect(guide.hasChanges).toBe(false);
  });

  it('step lines resent as stored change nothing', () => {
    const step: StepState = { ...stepState(1, 1), lines: [{ level: 0, text: 'Step 1', bullet: 'black', lineid: 0 } as StepState['lines'][number]] };
    const guide = Guide.restore({ ...create().state, revisionid: 10 }, [step]);
    guide.editStep(author, 1, step.revisionid, { lines: lines('Step 1') }, T1);
    expect(guide.hasChanges).toBe(false);
  });
});

describe('default titles', () => {
  it('puts "How to" first for how-to guides', () => {
    expect(create({ type: 'how-to', category: 'MacBook Pro', subject: 'Clean the Fan' }).state.title).toBe('How to: MacBook Pro Clean the Fan');
  });
});

describe('Guide publication and deletion', () => {
  it('publishes once, keeping the first publication time', () => {
    const guide = stored();
    guide.publish(author, T1);
    expect(guide.state).toMatchObject({ isPublic: true, publishedAt: T1 });
    const published = stored({ public: true });
    published.publish(author, T1);
    expect(published.hasChanges).toBe(false);
    published.unpublish(author, T1);
    expect(published.state).toMatchObject({ isPublic: false, publishedAt: T0 });
    expect(published.hasChanges).toBe(true);
  });

  it('unpublishing a private guide is a no-op', () => {
    const guide = stored();
    guide.unpublish(author, T1);
    expect(guide.hasChanges).toBe(false);
  });

  it('refuses publication by someone else', () => {
    expect(thrownBy(() => stored().publish(other, T1))).toBeInstanceOf(NotGuideEditorError);
  });

  it('lets the sole author or an admin delete (softly)', () => {
    const guide = stored();
    guide.delete(author, T1);
    expect(guide.state.deletedAt).toEqual(T1);
    expect(guide.isDeleted).toBe(true);
    const byAdmin = stored();
    byAdmin.delete(admin, T1);
    expect(byAdmin.isDeleted).toBe(true);
  });

  it('does not let the author delete once someone else contributed', () => {
    const guide = stored();
    guide.edit(admin, { summary: 'Improved by an admin' }, T1);
    const error = thrownBy(() => guide.delete(author, T1));
    expect(error).toBeInstanceOf(NotGuideEditorError);
    expect(guide.isDeleted).toBe(false);
  });
});

describe('Guide steps', () => {
  const withSteps = () => stored({}, [stepState(1, 1), stepState(2, 2), stepState(3, 3)]);
  const order = (guide: Guide) => guide.steps.map((s) => [s.id, s.orderby]);

  it('restores steps in their order', () => {
    const guide = stored({}, [stepState(2, 2), stepState(3, 3), stepState(1, 1)]);
    expect(order(guide)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(guide.hasChanges).toBe(false);
  });

  it('appends a step by default', () => {
    const guide = withSteps();
    const step = guide.addStep(author, { lines: lines('New') }, T1);
    expect(step.orderby).toBe(4);
    expect(order(guide)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [0, 4],
    ]);
    expect(guide.hasChanges).toBe(true);
  });

  it('inserts a step at orderby and renumbers the others', () => {
    const guide = withSteps();
    guide.addStep(author, { lines: lines('First now'), orderby: 1 }, T1);
    expect(order(guide)).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(guide.steps.filter((s) => s.changed).map((s) => s.id)).toEqual([0]);
  });

  it.each([[0], [5], [1.5], ['2'], [null]])('refuses the orderby %j', (orderby) => {
    const guide = withSteps();
    expect(violationsOf(() => guide.addStep(author, { lines: lines('x'), orderby }, T1))).toEqual([expect.objectContaining({ field: 'orderby' })]);
    expect(guide.steps).toHaveLength(3);
  });

  it('refuses a bad step without adding it', () => {
    const guide = withSteps();
    expect(fieldsOf(() => guide.addStep(author, { lines: [] }, T1))).toEqual(['lines']);
    expect(guide.steps).toHaveLength(3);
    expect(guide.hasChanges).toBe(false);
  });

  it('edits a step when its revision is current', () => {
    const guide = withSteps();
    guide.editStep(author, 2, 102, { title: 'Renamed' }, T1);
    expect(guide.step(2).title).toBe('Renamed');
    expect(guide.step(2).changed).toBe(true);
    expect(guide.hasChanges).toBe(true);
  });

  it('refuses a stale step revision, naming guide and step', () => {
    const guide = withSteps();
    const error = thrownBy(() => guide.editStep(author, 2, 101, { title: 'Renamed' }, T1));
    expect(error).toBeInstanceOf(StaleStepRevisionError);
    expect(error).toMatchObject({ guideId: ID, stepId: 2 });
    expect(guide.step(2).title).toBe('');
  });

  it('keeps a no-op step edit from changing the guide', () => {
    const guide = withSteps();
    guide.editStep(author, 2, 102, { lines: lines('Step 2') }, T1);
    expect(guide.hasChanges).toBe(false);
  });

  it('does not find a foreign step', () => {
    expect(thrownBy(() => withSteps().editStep(author, 9, 109, { title: 'x' }, T1))).toBeInstanceOf(StepNotFoundError);
  });

  it('removes a step and renumbers', () => {
    const guide = withSteps();
    guide.removeStep(author, 1, 101, T1);
    expect(order(guide)).toEqual([
      [2, 1],
      [3, 2],
    ]);
    expect(guide.stepIdsRemoved).toEqual([1]);
    expect(guide.hasChanges).toBe(true);
  });

  it('reorders steps given a permutation of their ids', () => {
    const guide = withSteps();
    guide.reorderSteps(author, [3, 1, 2], T1);
    expect(order(guide)).toEqual([
      [3, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(guide.hasChanges).toBe(true);
  });

  it('takes the same order as a no-op', () => {
    const guide = withSteps();
    guide.reorderSteps(author, [1, 2, 3], T1);
    expect(guide.hasChanges).toBe(false);
  });

  it.each([
    ['a missing id', [1, 2]],
    ['a duplicate id', [1, 2, 2]],
    ['a foreign id', [1, 2, 9]],
    ['an extra id', [1, 2, 3, 9]],
    ['no list', '1,2,3'],
  ])('refuses step ids with %s', (_label, stepids) => {
    const guide = withSteps();
    const error = thrownBy(() => guide.reorderSteps(author, stepids, T1));
    expect(error).toBeInstanceOf(InvalidGuideError);
    expect(error).toBeInstanceOf(RuleViolationError);
    expect((error as InvalidGuideError).violations).toEqual([expect.objectContaining({ field: 'stepids' })]);
    expect(order(guide).map(([id]) => id)).toEqual([1, 2, 3]);
  });

  it('clears the pending changes when stored', () => {
    const guide = withSteps();
    guide.addStep(author, { lines: lines('x') }, T1);
    guide.removeStep(author, 1, 101, T1);
    guide.markStored(42);
    expect(guide.state.revisionid).toBe(42);
    expect(guide.hasChanges).toBe(false);
    expect(guide.stepIdsRemoved).toEqual([]);
    expect(guide.steps.some((s) => s.changed)).toBe(false);
  });
});
