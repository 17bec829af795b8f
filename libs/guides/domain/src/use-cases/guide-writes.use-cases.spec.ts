import { ConflictError, PermissionDeniedError, RuleViolationError } from '@rc/shared-kernel';
import { GuideNotFoundError, GuidePrivateError, InvalidGuideError, NotGuideEditorError, StaleGuideRevisionError } from '../guides.errors.js';
import type { GuideId } from '../model/guide.js';
import { admin, author, guidesTestBed, other, rejectionOf } from '../testing/index.js';

const AT = Math.floor(new Date('2026-01-01T00:00:00Z').getTime() / 1000);

async function invalid(promise: Promise<unknown>) {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(InvalidGuideError);
  expect(error).toBeInstanceOf(RuleViolationError);
  return (error as InvalidGuideError).violations;
}

describe('CreateGuide', () => {
  it('stores a new private guide under a revision, without events', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    expect(guide.state).toMatchObject({ title: 'iPhone 12 Battery Replacement', isPublic: false, authorId: author.userId });
    expect(guide.state.revisionid).toBeGreaterThan(0);
    expect(guide.hasChanges).toBe(false);
    const stored = await bed.stored(guide.id);
    expect(stored.state).toEqual(guide.state);
    expect(bed.outbox.events).toEqual([]);
  });

  it('gives each guide its own id', async () => {
    const bed = guidesTestBed();
    const a = await bed.createGuide();
    const b = await bed.createGuide({ category: 'MacBook Pro' });
    expect(a.id).not.toBe(b.id);
    expect(bed.guides.all().map((g) => g.state.category)).toEqual(['iPhone 12', 'MacBook Pro']);
  });

  it('publishes a guide created public', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true, type: 'teardown' });
    expect(guide.state.publishedAt).toEqual(bed.clock.now());
    expect(bed.outbox.events).toEqual([{ type: 'GuidePublished', guideId: guide.id, authorId: author.userId, guideType: 'teardown', at: AT }]);
  });

  it('requires category and type, both reported', async () => {
    const bed = guidesTestBed();
    const violations = await invalid(bed.createGuideUseCase.execute({ editor: author, fields: {} }));
    expect(violations.map((v) => v.field).sort()).toEqual(['category', 'type']);
    expect(bed.guides.all()).toEqual([]);
  });

  it('refuses an unknown category', async () => {
    const bed = guidesTestBed();
    expect(await invalid(bed.createGuide({ category: 'Nokia 3310' }))).toEqual([{ field: 'category', message: expect.stringContaining('Nokia 3310') }]);
    expect(bed.guides.all()).toEqual([]);
    expect(bed.outbox.events).toEqual([]);
  });

  it('checks prerequisites exist', async () => {
    const bed = guidesTestBed();
    const base = await bed.createGuide();
    expect(await invalid(bed.createGuide({ prerequisites: [base.id, 404] }))).toEqual([{ field: 'prerequisites', message: expect.stringContaining('404') }]);
    const guide = await bed.createGuide({ prerequisites: [base.id] });
    expect((await bed.stored(guide.id)).state.prerequisites).toEqual([base.id]);
  });

  it('refuses a privileged flag from a non-admin, accepts it from an admin', async () => {
    const bed = guidesTestBed();
    expect(await invalid(bed.createGuide({ flags: ['GUIDE_STARRED'] }))).toEqual([expect.objectContaining({ field: 'flags' })]);
    const guide = await bed.createGuide({ flags: ['GUIDE_STARRED'] }, admin);
    expect(guide.state.flags).toEqual(['GUIDE_STARRED']);
  });
});

describe('EditGuide', () => {
  it('stores the change under a new revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    bed.advanceSeconds(60);
    const edited = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'Swap the battery' } });
    expect(edited.state.revisionid).toBeGreaterThan(guide.state.revisionid);
    const stored = await bed.stored(guide.id);
    expect(stored.state).toMatchObject({ title: 'Swap the battery', revisionid: edited.state.revisionid, modifiedAt: bed.clock.now() });
  });

  it('lets an admin edit and records them as a contributor', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.editGuide.execute({ editor: admin, guideId: guide.id, revisionid: guide.state.revisionid, fields: { difficulty: 'Easy' } });
    expect((await bed.stored(guide.id)).state).toMatchObject({ difficulty: 'Easy', contributorIds: [author.userId, admin.userId] });
  });

  it('refuses another user with NotGuideEditorError (permission denied)', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    const error = await rejectionOf(bed.editGuide.execute({ editor: other, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'Mine' } }));
    expect(error).toBeInstanceOf(NotGuideEditorError);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((await bed.stored(guide.id)).state.title).toBe('iPhone 12 Battery Replacement');
  });

  it('does not find an unknown or deleted guide', async () => {
    const bed = guidesTestBed();
    expect(await rejectionOf(bed.editGuide.execute({ editor: author, guideId: 404 as GuideId, revisionid: 1, fields: {} }))).toBeInstanceOf(GuideNotFoundError);
    const guide = await bed.createGuide();
    await bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid });
    const deleted = await bed.stored(guide.id);
    expect(await rejectionOf(bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: deleted.state.revisionid, fields: { title: 'x' } }))).toBeInstanceOf(
      GuideNotFoundError,
    );
  });

  it('refuses a stale revision with a conflict and stores nothing', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const first = guide.state.revisionid;
    await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: first, fields: { summary: 'one' } });
    const current = await bed.stored(guide.id);
    const error = await rejectionOf(bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: first, fields: { summary: 'two' } }));
    expect(error).toBeInstanceOf(StaleGuideRevisionError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ guideId: guide.id });
    expect((await bed.stored(guide.id)).state).toEqual(current.state);
    expect(bed.guides.revisionsOf(guide.id)).toEqual([first, current.state.revisionid]);
  });

  it('refuses an unknown category and stores nothing', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const violations = await invalid(bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { category: 'Toaster', title: 'x' } }));
    expect(violations).toEqual([expect.objectContaining({ field: 'category' })]);
    expect((await bed.stored(guide.id)).state).toEqual(guide.state);
  });

  it('moves the guide to another existing category', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { category: 'MacBook Pro' } });
    expect((await bed.stored(guide.id)).state.category).toBe('MacBook Pro');
  });

  it('refuses invalid fields with their violations', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const violations = await invalid(
      bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { type: 'nope', parts: [{ name: 'ok' }, { name: 'x', quantity: 0 }] } }),
    );
    expect(violations.map((v) => [v.field, v.index])).toEqual([
      ['type', undefined],
      ['parts', 1],
    ]);
  });

  it('publishes and unpublishes through the public field', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const published = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { public: true } });
    await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: published.state.revisionid, fields: { public: false } });
    expect(bed.outbox.types).toEqual(['GuidePublished', 'GuideUnpublished']);
  });

  describe('prerequisites', () => {
    async function three() {
      const bed = guidesTestBed();
      const a = await bed.createGuide({ subject: 'A' });
      const b = await bed.createGuide({ subject: 'B' });
      const c = await bed.createGuide({ subject: 'C' });
      /** Sets the prerequisites of a guide at its current revision. */
      const require = async (id: GuideId, prerequisites: number[]) => {
        const current = await bed.stored(id);
        return bed.editGuide.execute({ editor: author, guideId: id, revisionid: current.state.revisionid, fields: { prerequisites } });
      };
      return { bed, a, b, c, require };
    }

    it('stores valid prerequisites', async () => {
      const { bed, a, b, c, require } = await three();
      await require(a.id, [c.id, b.id]);
      expect((await bed.stored(a.id)).state.prerequisites).toEqual([c.id, b.id]);
    });

    it('refuses an unknown guide, naming it', async () => {
      const { bed, a, b, require } = await three();
      expect(await invalid(require(a.id, [b.id, 404]))).toEqual([{ field: 'prerequisites', message: expect.stringContaining('404') }]);
      expect((await bed.stored(a.id)).state.prerequisites).toEqual([]);
    });

    it('refuses a deleted guide', async () => {
      const { bed, a, b, require } = await three();
      await bed.deleteGuide.execute({ editor: author, guideId: b.id, revisionid: b.state.revisionid });
      expect(await invalid(require(a.id, [b.id]))).toEqual([{ field: 'prerequisites', message: expect.stringContaining(String(b.id)) }]);
    });

    it('refuses the guide itself', async () => {
      const { a, b, require } = await three();
      expect(await invalid(require(a.id, [b.id, a.id]))).toEqual([{ field: 'prerequisites', message: expect.stringContaining('own prerequisite') }]);
    });

    it('refuses a direct cycle (A requires B, then B requires A)', async () => {
      const { bed, a, b, require } = await three();
      await require(a.id, [b.id]);
      expect(await invalid(require(b.id, [a.id]))).toEqual([{ field: 'prerequisites', message: expect.stringContaining('cycle') }]);
      expect((await bed.stored(b.id)).state.prerequisites).toEqual([]);
    });

    it('refuses a longer cycle (A→B→C, then C→A)', async () => {
      const { bed, a, b, c, require } = await three();
      await require(a.id, [b.id]);
      await require(b.id, [c.id]);
      expect(await invalid(require(c.id, [a.id]))).toEqual([{ field: 'prerequisites', message: expect.stringContaining('cycle') }]);
      expect((await bed.stored(c.id)).state.prerequisites).toEqual([]);
    });

    it('allows shared prerequisites that make no cycle (A→B, A→C, B→C)', async () => {
      const { bed, a, b, c, require } = await three();
      await require(a.id, [b.id, c.id]);
      await require(b.id, [c.id]);
      expect((await bed.stored(b.id)).state.prerequisites).toEqual([c.id]);
    });
  });
});

describe('SetGuidePublic', () => {
  it('publishes, emitting GuidePublished once', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const published = await bed.setGuidePublic.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: true });
    expect(published.state.revisionid).toBeGreaterThan(guide.state.revisionid);
    expect((await bed.stored(guide.id)).state).toMatchObject({ isPublic: true, publishedAt: bed.clock.now() });
    expect(bed.outbox.events).toEqual([{ type: 'GuidePublished', guideId: guide.id, authorId: author.userId, guideType: 'replacement', at: AT }]);
  });

  it('takes publishing a public guide as a no-op: no revision, no event', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    bed.outbox.clear();
    const again = await bed.setGuidePublic.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: true });
    expect(again.state.revisionid).toBe(guide.state.revisionid);
    expect(bed.guides.revisionsOf(guide.id)).toEqual([guide.state.revisionid]);
    expect(bed.outbox.events).toEqual([]);
  });

  it('unpublishes, emitting GuideUnpublished', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    bed.advanceSeconds(10);
    await bed.setGuidePublic.execute({ editor: admin, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: false });
    expect((await bed.stored(guide.id)).state.isPublic).toBe(false);
    expect(bed.outbox.events.at(-1)).toEqual({ type: 'GuideUnpublished', guideId: guide.id, authorId: author.userId, at: AT + 10 });
  });

  it('takes unpublishing a private guide as a no-op', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.setGuidePublic.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: false });
    expect(bed.guides.revisionsOf(guide.id)).toEqual([guide.state.revisionid]);
    expect(bed.outbox.events).toEqual([]);
  });

  it('refuses a stale revision with a conflict', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { summary: 'changed' } });
    const error = await rejectionOf(bed.setGuidePublic.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: true }));
    expect(error).toBeInstanceOf(StaleGuideRevisionError);
    expect((await bed.stored(guide.id)).state.isPublic).toBe(false);
    expect(bed.outbox.events).toEqual([]);
  });

  it('refuses another user', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    expect(await rejectionOf(bed.setGuidePublic.execute({ editor: other, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: true }))).toBeInstanceOf(
      NotGuideEditorError,
    );
  });
});

describe('DeleteGuide', () => {
  it('deletes softly: the guide is kept with deletedAt, but not shown', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    bed.advanceSeconds(5);
    await bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid });
    const stored = await bed.stored(guide.id);
    expect(stored.state.deletedAt).toEqual(bed.clock.now());
    expect(stored.isDeleted).toBe(true);
    expect(await rejectionOf(bed.viewGuide.execute({ viewer: author, guideId: guide.id }))).toBeInstanceOf(GuideNotFoundError);
    expect(await bed.guides.missing([guide.id])).toEqual([guide.id]);
  });

  it('emits GuideUnpublished when a public guide is deleted', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    await bed.deleteGuide.execute({ editor: admin, guideId: guide.id, revisionid: guide.state.revisionid });
    expect(bed.outbox.types).toEqual(['GuidePublished', 'GuideUnpublished']);
  });

  it('emits nothing when a private guide is deleted', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid });
    expect(bed.outbox.events).toEqual([]);
  });

  it('lets an admin delete the guide of someone else', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.deleteGuide.execute({ editor: admin, guideId: guide.id, revisionid: guide.state.revisionid });
    expect((await bed.stored(guide.id)).isDeleted).toBe(true);
  });

  it('refuses another user', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    expect(await rejectionOf(bed.deleteGuide.execute({ editor: other, guideId: guide.id, revisionid: guide.state.revisionid }))).toBeInstanceOf(NotGuideEditorError);
    expect((await bed.stored(guide.id)).isDeleted).toBe(false);
  });

  it('refuses the author once an admin edited the guide', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const edited = await bed.editGuide.execute({ editor: admin, guideId: guide.id, revisionid: guide.state.revisionid, fields: { summary: 'Fixed by an admin' } });
    const error = await rejectionOf(bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: edited.state.revisionid }));
    expect(error).toBeInstanceOf(NotGuideEditorError);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((await bed.stored(guide.id)).isDeleted).toBe(false);
  });

  it('refuses a guide that is a prerequisite of another, naming it, and deletes nothing', async () => {
    const bed = guidesTestBed();
    const base = await bed.createGuide({ subject: 'Opening' });
    const dependent = await bed.createGuide({ prerequisites: [base.id] });
    const violations = await invalid(bed.deleteGuide.execute({ editor: author, guideId: base.id, revisionid: base.state.revisionid }));
    expect(violations).toEqual([{ field: 'guideid', message: expect.stringContaining(String(dependent.id)) }]);
    expect((await bed.stored(base.id)).isDeleted).toBe(false);
    expect(bed.guides.revisionsOf(base.id)).toEqual([base.state.revisionid]);
  });

  it('deletes a former prerequisite once the dependent is deleted', async () => {
    const bed = guidesTestBed();
    const base = await bed.createGuide({ subject: 'Opening' });
    const dependent = await bed.createGuide({ prerequisites: [base.id] });
    await bed.deleteGuide.execute({ editor: author, guideId: dependent.id, revisionid: dependent.state.revisionid });
    await bed.deleteGuide.execute({ editor: author, guideId: base.id, revisionid: base.state.revisionid });
    expect((await bed.stored(base.id)).isDeleted).toBe(true);
  });

  it('refuses a stale revision with a conflict', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { summary: 'changed' } });
    const error = await rejectionOf(bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid }));
    expect(error).toBeInstanceOf(StaleGuideRevisionError);
    expect(error).toBeInstanceOf(ConflictError);
    expect((await bed.stored(guide.id)).isDeleted).toBe(false);
  });

  it('makes a deleted public guide invisible to everyone', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    await bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid });
    for (const viewer of [null, other, author, admin]) {
      const error = await rejectionOf(bed.viewGuide.execute({ viewer, guideId: guide.id }));
      expect(error).toBeInstanceOf(GuideNotFoundError);
      expect(error).not.toBeInstanceOf(GuidePrivateError);
    }
  });
});
