import { FixedClock, ImmediateUnitOfWork } from '@rc/shared-kernel/testing';
import { Guide, type GuideId, type GuideInput } from '../model/guide.js';
import { CategoryDirectory } from '../ports/category-directory.js';
import { GuideEventOutbox, GuideMarks, GuideTags } from '../ports/guide-activity.js';
import { GuideRepository } from '../ports/guide.repository.js';
import { InMemoryCategoryDirectory } from './in-memory-category-directory.js';
import { InMemoryGuideMarks } from './in-memory-guide-marks.js';
import { InMemoryGuideTags } from './in-memory-guide-tags.js';
import { InMemoryGuideRepository } from './in-memory-guide.repository.js';
import { RecordingOutbox } from './recording-outbox.js';
import { admin, author, guidesTestBed, linesOf, other, TEST_CATEGORIES } from './guides-test-bed.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const T1 = new Date('2026-01-02T00:00:00Z');

async function newGuide(guides: InMemoryGuideRepository, input: GuideInput = {}): Promise<Guide> {
  const guide = Guide.create(await guides.nextId(), author, { category: 'iPhone 12', type: 'repair', ...input }, T0);
  await guides.save(guide);
  return guide;
}

async function load(guides: InMemoryGuideRepository, id: GuideId): Promise<Guide> {
  const guide = await guides.findById(id);
  if (!guide) throw new Error(`No guide ${id}`);
  return guide;
}

describe('InMemoryGuideRepository', () => {
  it('is a GuideRepository handing out increasing ids', async () => {
    const guides = new InMemoryGuideRepository();
    expect(guides).toBeInstanceOf(GuideRepository);
    expect([await guides.nextId(), await guides.nextId()]).toEqual([1, 2]);
  });

  it('finds stored guides as fresh Guide instances, and nothing else', async () => {
    const guides = new InMemoryGuideRepository();
    const guide = await newGuide(guides);
    const a = await guides.findById(guide.id);
    const b = await guides.findForUpdate(guide.id);
    expect(a).toBeInstanceOf(Guide);
    expect(a?.state).toEqual(guide.state);
    expect(b?.state).toEqual(guide.state);
    expect(a).not.toBe(b);
    expect(a?.hasChanges).toBe(false);
    expect(await guides.findById(404 as GuideId)).toBeNull();
    expect(await guides.findForUpdate(404 as GuideId)).toBeNull();
  });

  it('makes changes visible only once saved', async () => {
    const guides = new InMemoryGuideRepository();
    const guide = await newGuide(guides);
    const copy = await load(guides, guide.id);
    copy.edit(author, { title: 'Changed', parts: [{ name: 'Battery' }] }, T1);
    copy.addStep(author, { lines: linesOf('New') }, T1);
    expect((await load(guides, guide.id)).state.title).not.toBe('Changed');
    expect((await load(guides, guide.id)).steps).toEqual([]);
    await guides.save(copy);
    const stored = await load(guides, guide.id);
    expect(stored.state).toMatchObject({ title: 'Changed', parts: [expect.objectContaining({ text: 'Battery' })] });
    expect(stored.steps).toHaveLength(1);
  });

  it('does not share state with the guides it hands out or was given', async () => {
    const guides = new InMemoryGuideRepository();
    const guide = await newGuide(guides, { flags: ['GUIDE_IN_PROGRESS'] });
    (guide.state.flags as string[]).push('GUIDE_PREREQ_ONLY');
    const copy = await load(guides, guide.id);
    (copy.state.flags as string[]).push('GUIDE_PREREQ_ONLY');
    expect((await load(guides, guide.id)).state.flags).toEqual(['GUIDE_IN_PROGRESS']);
  });

  it('stores nothing when the guide has no changes', async () => {
    const guides = new InMemoryGuideRepository();
    const guide = await newGuide(guides);
    const last = guides.lastRevision;
    const copy = await load(guides, guide.id);
    copy.edit(author, { title: copy.state.title }, T1);
    await guides.save(copy);
    expect(guides.lastRevision).toBe(last);
    expect(copy.state.revisionid).toBe(guide.state.revisionid);
    expect(guides.revisionsOf(guide.id)).toEqual([guide.state.revisionid]);
  });

  it('gives every save a new revision from one increasing counter, and clears pending changes', async () => {
    const guides = new InMemoryGuideRepository();
    const a = await newGuide(guides);
    const b = await newGuide(guides);
    const copy = await load(guides, a.id);
    copy.edit(author, { summary: 'x' }, T1);
    await guides.save(copy);
    expect(a.state.revisionid).toBeGreaterThan(0);
    expect(b.state.revisionid).toBeGreaterThan(a.state.revisionid);
    expect(copy.state.revisionid).toBeGreaterThan(b.state.revisionid);
    expect(copy.hasChanges).toBe(false);
    expect((await load(guides, a.id)).state.revisionid).toBe(copy.state.revisionid);
  });

  it('gives new steps ids, and changed steps new revisions; others keep theirs', async () => {
    const guides = new InMemoryGuideRepository();
    const guide = await newGuide(guides);
    guide.addStep(author, { lines: linesOf('One') }, T1);
    guide.addStep(author, { lines: linesOf('Two') }, T1);
    await guides.save(guide);
    const [one, two] = guide.steps.map((s) => s.toState());
    expect(one!.id).toBeGreaterThan(0);
    expect(two!.id).toBeGreaterThan(one!.id);
    expect(new Set([one!.revisionid, two!.revisionid, guide.state.revisionid]).size).toBe(3);
    expect(guide.steps.every((s) => !s.changed)).toBe(true);

    const copy = await load(guides, guide.id);
    copy.editStep(author, two!.id, two!.revisionid, { title: 'Changed' }, T1);
    await guides.save(copy);
    const stored = await load(guides, guide.id);
    expect(stored.step(one!.id).revisionid).toBe(one!.revisionid);
    expect(stored.step(two!.id).revisionid).toBeGreaterThan(guide.state.revisionid);
    expect(stored.state.revisionid).toBeGreaterThan(stored.step(two!.id).revisionid);
  });

  it('deletes removed steps and stores the new order', async () => {
    const guides = new InMemoryGuideRepository();
    const guide = await newGuide(guides);
    for (const text of ['One', 'Two', 'Three']) guide.addStep(author, { lines: linesOf(text) }, T1);
    await guides.save(guide);
    const copy = await load(guides, guide.id);
    const [one, , three] = copy.steps;
    copy.removeStep(author, one!.id, one!.revisionid, T1);
    copy.reorderSteps(author, [three!.id, copy.steps[0]!.id], T1);
    await guides.save(copy);
    const stored = await load(guides, guide.id);
    expect(stored.steps.map((s) => [s.lines[0]?.text, s.orderby])).toEqual([
      ['Three', 1],
      ['Two', 2],
    ]);
  });

  it('keeps a snapshot of every stored revision, as copies', async () => {
    const guides = new InMemoryGuideRepository();
    const guide = await newGuide(guides, { title: 'First' });
    guide.addStep(author, { lines: linesOf('Step') }, T1);
    await guides.save(guide);
    const second = guide.state.revisionid;
    guide.edit(author, { title: 'Third' }, T1);
    await guides.save(guide);
    expect(guides.revisionsOf(guide.id)).toHaveLength(3);
    const [first] = guides.revisionsOf(guide.id);
    expect((await guides.snapshot(guide.id, first!))?.state.title).toBe('First');
    expect((await guides.snapshot(guide.id, first!))?.steps).toEqual([]);
    const snap = await guides.snapshot(guide.id, second);
    expect(snap?.state).toMatchObject({ title: 'First', revisionid: second });
    expect(snap?.steps.map((s) => s.lines[0]?.text)).toEqual(['Step']);
    Object.assign(snap!.steps[0]!.lines[0]!, { text: 'Tampered' });
    expect((await guides.snapshot(guide.id, second))?.steps[0]?.lines[0]?.text).toBe('Step');
    expect(await guides.snapshot(guide.id, 999)).toBeNull();
    expect(await guides.snapshot(404 as GuideId, second)).toBeNull();
  });

  it('lists missing ids: unknown or deleted guides', async () => {
    const guides = new InMemoryGuideRepository();
    const live = await newGuide(guides);
    const deleted = await newGuide(guides);
    deleted.delete(author, T1);
    await guides.save(deleted);
    expect(await guides.missing([live.id, deleted.id, 404])).toEqual([deleted.id, 404]);
    expect(await guides.missing([])).toEqual([]);
  });

  it('tells whether prerequisites would close a cycle, walking undeleted guides', async () => {
    const guides = new InMemoryGuideRepository();
    const a = await newGuide(guides);
    const b = await newGuide(guides, { prerequisites: [a.id] });
    const c = await newGuide(guides, { prerequisites: [b.id] });
    const d = await newGuide(guides);
    expect(await guides.wouldCycle(a.id, [c.id])).toBe(true);
    expect(await guides.wouldCycle(a.id, [b.id])).toBe(true);
    expect(await guides.wouldCycle(a.id, [a.id])).toBe(true);
    expect(await guides.wouldCycle(a.id, [d.id])).toBe(false);
    expect(await guides.wouldCycle(c.id, [a.id, d.id])).toBe(false);
    expect(await guides.wouldCycle(a.id, [])).toBe(false);
    b.delete(author, T1);
    await guides.save(b);
    expect(await guides.wouldCycle(a.id, [c.id])).toBe(false);
  });

  it('lists undeleted dependents', async () => {
    const guides = new InMemoryGuideRepository();
    const base = await newGuide(guides);
    const one = await newGuide(guides, { prerequisites: [base.id] });
    const two = await newGuide(guides, { prerequisites: [base.id] });
    await newGuide(guides);
    expect(await guides.dependents(base.id)).toEqual([one.id, two.id]);
    two.delete(author, T1);
    await guides.save(two);
    expect(await guides.dependents(base.id)).toEqual([one.id]);
    expect(await guides.dependents(one.id)).toEqual([]);
  });
});

describe('InMemoryCategoryDirectory', () => {
  it('knows the titles it was given, exactly', async () => {
    const categories = new InMemoryCategoryDirectory(['iPhone 12']);
    expect(categories).toBeInstanceOf(CategoryDirectory);
    expect(await categories.exists('iPhone 12')).toBe(true);
    expect(await categories.exists('iphone 12')).toBe(false);
    categories.add('Pixel 7');
    expect(await categories.exists('Pixel 7')).toBe(true);
    categories.remove('Pixel 7');
    expect(await categories.exists('Pixel 7')).toBe(false);
  });
});

describe('InMemoryGuideMarks', () => {
  it('keeps each mark once per kind, user and guide', async () => {
    const marks = new InMemoryGuideMarks();
    expect(marks).toBeInstanceOf(GuideMarks);
    expect(await marks.add('favorite', 1, 10, T0)).toBe(true);
    expect(await marks.add('favorite', 1, 10, T1)).toBe(false);
    expect(await marks.add('completion', 1, 10, T1)).toBe(true);
    expect(await marks.add('favorite', 2, 10, T1)).toBe(true);
    expect(marks.markedAt('favorite', 1, 10)).toEqual(T0);
    expect(marks.guidesMarked('favorite', 1)).toEqual([10]);
    expect(await marks.remove('favorite', 1, 10)).toBe(true);
    expect(await marks.remove('favorite', 1, 10)).toBe(false);
    expect(marks.has('favorite', 1, 10)).toBe(false);
    expect(marks.has('completion', 1, 10)).toBe(true);
    expect(marks.has('favorite', 2, 10)).toBe(true);
  });
});

describe('InMemoryGuideTags', () => {
  it('keeps each tag once per guide, listed alphabetically', async () => {
    const tags = new InMemoryGuideTags();
    expect(tags).toBeInstanceOf(GuideTags);
    expect(await tags.add(1, 'screen', T0)).toBe(true);
    expect(await tags.add(1, 'battery', T0)).toBe(true);
    expect(await tags.add(1, 'battery', T1)).toBe(false);
    expect(await tags.add(2, 'battery', T0)).toBe(true);
    expect(await tags.list(1)).toEqual(['battery', 'screen']);
    expect(await tags.remove(1, 'battery')).toBe(true);
    expect(await tags.remove(1, 'battery')).toBe(false);
    expect(await tags.remove(3, 'battery')).toBe(false);
    expect(await tags.list(1)).toEqual(['screen']);
    expect(await tags.list(2)).toEqual(['battery']);
    expect(await tags.list(3)).toEqual([]);
  });
});

describe('RecordingOutbox', () => {
  it('keeps the events in order', async () => {
    const outbox = new RecordingOutbox();
    expect(outbox).toBeInstanceOf(GuideEventOutbox);
    await outbox.publish({ type: 'GuidePublished', guideId: 1, authorId: 1, guideType: 'repair', at: 1 });
    await outbox.publish({ type: 'GuideFavorited', guideId: 1, authorId: 1, userId: 2, at: 2 });
    expect(outbox.types).toEqual(['GuidePublished', 'GuideFavorited']);
    expect(outbox.ofType('GuideFavorited')).toEqual([{ type: 'GuideFavorited', guideId: 1, authorId: 1, userId: 2, at: 2 }]);
    outbox.clear();
    expect(outbox.events).toEqual([]);
  });
});

describe('guidesTestBed', () => {
  it('wires the fakes, a fixed clock and an immediate unit of work', async () => {
    const bed = guidesTestBed();
    expect(bed.clock).toBeInstanceOf(FixedClock);
    expect(bed.uow).toBeInstanceOf(ImmediateUnitOfWork);
    expect(bed.clock.now()).toEqual(T0);
    for (const title of TEST_CATEGORIES) expect(await bed.categories.exists(title)).toBe(true);
    bed.advanceSeconds(86_400);
    expect(bed.clock.now()).toEqual(T1);
  });

  it('has distinct ordinary users and an admin', () => {
    expect(author).toEqual({ userId: 1, isAdmin: false });
    expect(other).toEqual({ userId: 2, isAdmin: false });
    expect(admin).toEqual({ userId: 99, isAdmin: true });
  });

  it('creates guides with defaults and overrides, and guides with steps', async () => {
    const bed = guidesTestBed({ now: '2030-05-01T00:00:00Z' });
    const guide = await bed.createGuide();
    expect(guide.state).toMatchObject({ title: 'iPhone 12 Battery Replacement', category: 'iPhone 12', type: 'replacement', isPublic: false, createdAt: new Date('2030-05-01T00:00:00Z') });
    const mac = await bed.createGuide({ category: 'MacBook Pro', subject: 'Fan', type: 'repair' }, other);
    expect(mac.state).toMatchObject({ title: 'MacBook Pro Fan Repair', authorId: other.userId });
    const withSteps = await bed.createGuideWithSteps(['A', 'B']);
    expect(withSteps.steps.map((s) => [s.orderby, s.lines[0]?.text])).toEqual([
      [1, 'A'],
      [2, 'B'],
    ]);
    expect(bed.uow.runs).toBeGreaterThan(0);
  });
});
