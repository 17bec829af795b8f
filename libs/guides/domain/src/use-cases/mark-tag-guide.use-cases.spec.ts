import { PermissionDeniedError } from '@rc/shared-kernel';
import { GuideNotFoundError, GuideTagNotFoundError, InvalidGuideError, ModeratorRequiredError } from '../guides.errors.js';
import type { GuideId } from '../model/guide.js';
import { admin, author, guidesTestBed, other, rejectionOf } from '../testing/index.js';

const AT = Math.floor(new Date('2026-01-01T00:00:00Z').getTime() / 1000);

describe('MarkGuide', () => {
  it('favourites once: a second favourite emits nothing', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    bed.outbox.clear();
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'favorite', on: true });
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'favorite', on: true });
    expect(bed.marks.has('favorite', other.userId, guide.id)).toBe(true);
    expect(bed.outbox.events).toEqual([{ type: 'GuideFavorited', guideId: guide.id, authorId: author.userId, userId: other.userId, at: AT }]);
  });

  it('unfavourites, emitting GuideUnfavorited', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    bed.outbox.clear();
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'favorite', on: true });
    bed.advanceSeconds(30);
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'favorite', on: false });
    expect(bed.marks.has('favorite', other.userId, guide.id)).toBe(false);
    expect(bed.outbox.events).toEqual([
      { type: 'GuideFavorited', guideId: guide.id, authorId: author.userId, userId: other.userId, at: AT },
      { type: 'GuideUnfavorited', guideId: guide.id, authorId: author.userId, userId: other.userId, at: AT + 30 },
    ]);
  });

  it('takes unfavouriting a guide that is not a favourite as a no-op: no event, no error', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    bed.outbox.clear();
    await expect(bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'favorite', on: false })).resolves.toBeUndefined();
    expect(bed.outbox.events).toEqual([]);
  });

  it('records completions with the user and the author', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    bed.outbox.clear();
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'completion', on: true });
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'completion', on: true });
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'completion', on: false });
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'completion', on: false });
    expect(bed.outbox.events).toEqual([
      { type: 'GuideCompleted', guideId: guide.id, authorId: author.userId, userId: other.userId, at: AT },
      { type: 'GuideUncompleted', guideId: guide.id, authorId: author.userId, userId: other.userId, at: AT },
    ]);
  });

  it('keeps favourites and completions apart, per user', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    await bed.markGuide.execute({ viewer: other, guideId: guide.id, kind: 'favorite', on: true });
    await bed.markGuide.execute({ viewer: admin, guideId: guide.id, kind: 'completion', on: true });
    expect(bed.marks.has('completion', other.userId, guide.id)).toBe(false);
    expect(bed.marks.has('favorite', admin.userId, guide.id)).toBe(false);
    expect(bed.outbox.ofType('GuideFavorited').map((e) => e.userId)).toEqual([other.userId]);
    expect(bed.outbox.ofType('GuideCompleted').map((e) => e.userId)).toEqual([admin.userId]);
  });

  it('lets the author mark their own private guide', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.markGuide.execute({ viewer: author, guideId: guide.id, kind: 'favorite', on: true });
    expect(bed.outbox.events).toEqual([{ type: 'GuideFavorited', guideId: guide.id, authorId: author.userId, userId: author.userId, at: AT }]);
  });

  it('does not find a private guide of someone else, nor a deleted or unknown one', async () => {
    const bed = guidesTestBed();
    const privateGuide = await bed.createGuide();
    const deleted = await bed.createGuide({ public: true });
    await bed.deleteGuide.execute({ editor: author, guideId: deleted.id, revisionid: deleted.state.revisionid });
    bed.outbox.clear();
    for (const guideId of [privateGuide.id, deleted.id, 404 as GuideId]) {
      expect(await rejectionOf(bed.markGuide.execute({ viewer: other, guideId, kind: 'favorite', on: true }))).toBeInstanceOf(GuideNotFoundError);
    }
    expect(bed.marks.guidesMarked('favorite', other.userId)).toEqual([]);
    expect(bed.outbox.events).toEqual([]);
  });
});

describe('TagGuide', () => {
  it('lets an admin add and remove tags', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: 'battery', on: true });
    await bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: '  screen   repair ', on: true });
    await bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: 'battery', on: true });
    expect(await bed.tags.list(guide.id)).toEqual(['battery', 'screen repair']);
    await bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: 'battery', on: false });
    expect(await bed.tags.list(guide.id)).toEqual(['screen repair']);
  });

  it('refuses a non-admin, even the author, with ModeratorRequiredError asking for Admin', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    for (const editor of [author, other]) {
      const error = await rejectionOf(bed.tagGuide.execute({ editor, guideId: guide.id, tag: 'battery', on: true }));
      expect(error).toBeInstanceOf(ModeratorRequiredError);
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect((error as ModeratorRequiredError).requiredPrivileges).toEqual(['Admin']);
    }
    expect(await bed.tags.list(guide.id)).toEqual([]);
  });

  it('accepts a tag of 32 characters', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: 'x'.repeat(32), on: true });
    await bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: 'iPhone_12 c++ #1.5:ok-ü', on: true });
    expect(await bed.tags.list(guide.id)).toHaveLength(2);
  });

  it.each([[''], ['   '], ['x'.repeat(33)], ['<script>'], ['-leading'], ['a/b'], [42], [null]])('refuses the tag %j', async (tag) => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const error = await rejectionOf(bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag, on: true }));
    expect(error).toBeInstanceOf(InvalidGuideError);
    expect((error as InvalidGuideError).violations).toEqual([expect.objectContaining({ field: 'tag' })]);
    expect(await bed.tags.list(guide.id)).toEqual([]);
  });

  it('answers GuideTagNotFoundError when removing a tag that is not there', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: 'battery', on: true });
    expect(await rejectionOf(bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: 'screen', on: false }))).toBeInstanceOf(GuideTagNotFoundError);
    expect(await bed.tags.list(guide.id)).toEqual(['battery']);
  });

  it('does not find an unknown or deleted guide', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid });
    for (const guideId of [guide.id, 404 as GuideId]) {
      expect(await rejectionOf(bed.tagGuide.execute({ editor: admin, guideId, tag: 'battery', on: true }))).toBeInstanceOf(GuideNotFoundError);
    }
  });

  it('does not change the guide revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.tagGuide.execute({ editor: admin, guideId: guide.id, tag: 'battery', on: true });
    expect((await bed.stored(guide.id)).state.revisionid).toBe(guide.state.revisionid);
  });
});
