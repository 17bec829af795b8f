import { GuideNotFoundError, GuidePrivateError, GuideTeamNotFoundError, InvalidGuideError, NotGuideEditorError, StaleGuideRevisionError } from '../guides.errors.js';
import { readChangeSummary, type Editor } from '../model/guide.js';
import { admin, author, guidesTestBed, linesOf, other, rejectionOf, thrownBy } from '../testing/index.js';

const third: Editor = { userId: 3, isAdmin: false };

describe('summary_of_change', () => {
  it('is trimmed, spaces collapsed; absent or blank is none', () => {
    expect(readChangeSummary('  Fixed   a typo\n')).toBe('Fixed a typo');
    expect(readChangeSummary(undefined)).toBeNull();
    expect(readChangeSummary(null)).toBeNull();
    expect(readChangeSummary('   ')).toBeNull();
  });

  it('refuses what is not a line of text of at most 255 characters, naming the field', () => {
    for (const bad of [42, ['x'], 'a\u0000b', 'x'.repeat(256)]) {
      const error = thrownBy(() => readChangeSummary(bad));
      expect(error).toBeInstanceOf(InvalidGuideError);
      expect((error as InvalidGuideError).violations[0]!.field).toBe('summary_of_change');
    }
    expect(readChangeSummary('é'.repeat(255))).toHaveLength(255);
  });

  it('is recorded with the revision the write makes, newest first in the history', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'Better' }, summaryOfChange: ' Better title ' });
    const history = await bed.guideHistory.execute({ viewer: null, guideId: guide.id, page: { limit: 20, offset: 0 } });
    expect(history.map((h) => h.summaryOfChange)).toEqual(['Better title', null]);
    expect(history.map((h) => h.editorId)).toEqual([author.userId, author.userId]);
    expect(history[0]!.revisionid).toBeGreaterThan(history[1]!.revisionid);
    expect(history[0]!.langid).toBe('en');
    expect((await bed.guideHistory.execute({ viewer: null, guideId: guide.id, page: { limit: 1, offset: 1 } })).map((h) => h.summaryOfChange)).toEqual([null]);
  });

  it('makes an invalid summary a 422 before anything is written', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const error = await rejectionOf(bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'X' }, summaryOfChange: 'x'.repeat(300) }));
    expect(error).toBeInstanceOf(InvalidGuideError);
    expect((await bed.stored(guide.id)).state.title).toBe(guide.state.title);
  });

  it('follows the guide: the history of a private guide is refused to others, that of a gone one is not found', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    expect(await rejectionOf(bed.guideHistory.execute({ viewer: other, guideId: guide.id, page: { limit: 20, offset: 0 } }))).toBeInstanceOf(GuidePrivateError);
    expect(await bed.guideHistory.execute({ viewer: admin, guideId: guide.id, page: { limit: 20, offset: 0 } })).toHaveLength(1);
    await bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid });
    expect(await rejectionOf(bed.guideHistory.execute({ viewer: admin, guideId: guide.id, page: { limit: 20, offset: 0 } }))).toBeInstanceOf(GuideNotFoundError);
  });
});

describe('RevertGuide', () => {
  it("restores an older revision's fields and steps (removed steps come back with their ids, order and content) as a new revision", async () => {
    const bed = guidesTestBed();
    const original = await bed.createGuideWithSteps(['One', 'Two', 'Three'], { introduction: 'Intro' });
    const [one, two, three] = original.steps;
    let guide = await bed.removeStep.execute({ editor: author, guideId: original.id, stepId: two!.id, revisionid: two!.revisionid });
    guide = await bed.editStep.execute({ editor: author, guideId: guide.id, stepId: three!.id, revisionid: guide.step(three!.id).revisionid, step: { lines: linesOf('Three, edited') } });
    guide = await bed.reorderSteps.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, stepids: [three!.id, one!.id] });
    guide = await bed.appendStep(guide.id, { lines: linesOf('Four') });
    guide = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { introduction: 'Changed', title: 'Changed' } });

    const reverted = await bed.revertGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, toRevisionid: original.state.revisionid, summaryOfChange: 'Back' });
    expect(reverted.state.revisionid).toBeGreaterThan(guide.state.revisionid);
    const stored = await bed.stored(guide.id);
    expect(stored.state).toMatchObject({ title: original.state.title, introduction: 'Intro' });
    expect(stored.steps.map((s) => ({ id: s.id, orderby: s.orderby, text: s.lines[0]!.text }))).toEqual([
      { id: one!.id, orderby: 1, text: 'One' },
      { id: two!.id, orderby: 2, text: 'Two' },
      { id: three!.id, orderby: 3, text: 'Three' },
    ]);
    const history = await bed.guideHistory.execute({ viewer: author, guideId: guide.id, page: { limit: 1, offset: 0 } });
    expect(history[0]).toMatchObject({ revisionid: stored.state.revisionid, summaryOfChange: 'Back' });
  });

  it('keeps the visibility, and is a no-op (same revision) when the content is already the old one', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const published = await bed.setGuidePublic.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: true });
    const reverted = await bed.revertGuide.execute({ editor: author, guideId: guide.id, revisionid: published.state.revisionid, toRevisionid: guide.state.revisionid });
    expect(reverted.state.revisionid).toBe(published.state.revisionid);
    expect((await bed.stored(guide.id)).state.isPublic).toBe(true);
  });

  it('keeps privileged flags for editors who cannot set them', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const starred = await bed.editGuide.execute({ editor: admin, guideId: guide.id, revisionid: guide.state.revisionid, fields: { flags: ['GUIDE_STARRED', 'GUIDE_IN_PROGRESS'] } });
    await bed.revertGuide.execute({ editor: author, guideId: guide.id, revisionid: starred.state.revisionid, toRevisionid: guide.state.revisionid });
    expect((await bed.stored(guide.id)).state.flags).toEqual(['GUIDE_STARRED']);
  });

  it('answers 409 for a stale revision, 422 for a revision that is not of this guide, 403 for a stranger', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const edited = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'Edited' } });
    const another = await bed.createGuide();
    expect(await rejectionOf(bed.revertGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, toRevisionid: guide.state.revisionid }))).toBeInstanceOf(StaleGuideRevisionError);
    const invalid = await rejectionOf(bed.revertGuide.execute({ editor: author, guideId: guide.id, revisionid: edited.state.revisionid, toRevisionid: another.state.revisionid }));
    expect((invalid as InvalidGuideError).violations[0]!.field).toBe('to_revisionid');
    expect(await rejectionOf(bed.revertGuide.execute({ editor: other, guideId: guide.id, revisionid: edited.state.revisionid, toRevisionid: guide.state.revisionid }))).toBeInstanceOf(NotGuideEditorError);
    expect((await bed.stored(guide.id)).state.title).toBe('Edited');
  });

  it('refuses to restore a category that no longer exists (422)', async () => {
    const bed = guidesTestBed({ categories: ['iPhone 12', 'MacBook Pro'] });
    const guide = await bed.createGuide();
    const moved = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { category: 'MacBook Pro' } });
    bed.categories.remove('iPhone 12');
    const error = await rejectionOf(bed.revertGuide.execute({ editor: author, guideId: guide.id, revisionid: moved.state.revisionid, toRevisionid: guide.state.revisionid }));
    expect((error as InvalidGuideError).violations[0]!.field).toBe('category');
  });
});

describe('collaborators and teams', () => {
  it('lets a collaborator edit the guide; only the author and Admins choose collaborators', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    expect(await rejectionOf(bed.editGuide.execute({ editor: other, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'Mine' } }))).toBeInstanceOf(NotGuideEditorError);
    await bed.changeGuideAccess.execute({ editor: author, guideId: guide.id, kind: 'user', id: other.userId, on: true });
    const edited = await bed.editGuide.execute({ editor: other, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'Mine' } });
    expect(edited.state.title).toBe('Mine');
    // A collaborator may not add others, nor remove themselves from the author's list.
    expect(await rejectionOf(bed.changeGuideAccess.execute({ editor: other, guideId: guide.id, kind: 'user', id: third.userId, on: true }))).toBeInstanceOf(NotGuideEditorError);
    await bed.changeGuideAccess.execute({ editor: admin, guideId: guide.id, kind: 'user', id: third.userId, on: true });
    expect((await bed.stored(guide.id)).access.userIds).toEqual([other.userId, third.userId]);
    await bed.changeGuideAccess.execute({ editor: author, guideId: guide.id, kind: 'user', id: other.userId, on: false });
    expect(await rejectionOf(bed.editGuide.execute({ editor: other, guideId: guide.id, revisionid: edited.state.revisionid, fields: { title: 'Again' } }))).toBeInstanceOf(NotGuideEditorError);
  });

  it('makes no revision, and adding twice or removing an absent one changes nothing', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    for (let i = 0; i < 2; i++) await bed.changeGuideAccess.execute({ editor: author, guideId: guide.id, kind: 'user', id: other.userId, on: true });
    await bed.changeGuideAccess.execute({ editor: author, guideId: guide.id, kind: 'user', id: 77, on: false });
    const stored = await bed.stored(guide.id);
    expect(stored.access.userIds).toEqual([other.userId]);
    expect(stored.state.revisionid).toBe(guide.state.revisionid);
  });

  it("lets a team's members edit a guide shared with the team, looking their teams up only when they decide", async () => {
    const bed = guidesTestBed({ teams: { [other.userId]: [7], [third.userId]: [8], [author.userId]: [9] } });
    const guide = await bed.createGuide({ public: true });
    expect(await rejectionOf(bed.changeGuideAccess.execute({ editor: author, guideId: guide.id, kind: 'team', id: 404, on: true }))).toBeInstanceOf(GuideTeamNotFoundError);
    await bed.changeGuideAccess.execute({ editor: author, guideId: guide.id, kind: 'team', id: 7, on: true });
    expect(await bed.viewGuide.canEdit(await bed.stored(guide.id), other)).toBe(true);
    expect(await bed.viewGuide.canEdit(await bed.stored(guide.id), third)).toBe(false);
    const lookups = bed.teams.lookups;
    expect(await bed.viewGuide.canEdit(await bed.stored(guide.id), author)).toBe(true);
    expect(await bed.viewGuide.canEdit(await bed.stored(guide.id), admin)).toBe(true);
    expect(bed.teams.lookups).toBe(lookups);
    const edited = await bed.editGuide.execute({ editor: other, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'By the team' } });
    expect(edited.state.title).toBe('By the team');
    expect(await rejectionOf(bed.editGuide.execute({ editor: third, guideId: guide.id, revisionid: edited.state.revisionid, fields: { title: 'No' } }))).toBeInstanceOf(NotGuideEditorError);
  });

  it('shows a private guide to its collaborators and team members, and tells the rights', async () => {
    const bed = guidesTestBed({ teams: { [third.userId]: [8] } });
    const guide = await bed.createGuide();
    expect(await rejectionOf(bed.viewGuideAccess.execute({ viewer: third, guideId: guide.id }))).toBeInstanceOf(GuidePrivateError);
    await bed.changeGuideAccess.execute({ editor: author, guideId: guide.id, kind: 'team', id: 8, on: true });
    expect((await bed.viewGuideAccess.execute({ viewer: third, guideId: guide.id })).rights).toEqual({ canView: true, canEdit: true, canChangePrivacy: true });
    const published = await bed.setGuidePublic.execute({ editor: third, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: true });
    expect((await bed.viewGuideAccess.execute({ viewer: other, guideId: guide.id })).rights).toEqual({ canView: true, canEdit: false, canChangePrivacy: false });
    expect(published.state.isPublic).toBe(true);
  });

  it('does not find the access lists of a deleted guide', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid });
    expect(await rejectionOf(bed.changeGuideAccess.execute({ editor: admin, guideId: guide.id, kind: 'user', id: other.userId, on: true }))).toBeInstanceOf(GuideNotFoundError);
  });
});

describe('team lookups', () => {
  it('are made only when a private guide shared with teams is read by someone the lists do not name otherwise', async () => {
    const bed = guidesTestBed({ teams: { [third.userId]: [8] } });
    const shared = await bed.createGuide({ public: true });
    await bed.changeGuideAccess.execute({ editor: author, guideId: shared.id, kind: 'team', id: 8, on: true });
    const before = bed.teams.lookups;
    await bed.viewGuide.execute({ viewer: third, guideId: shared.id });
    expect(bed.teams.lookups).toBe(before);
    const hidden = await bed.createGuide();
    await bed.changeGuideAccess.execute({ editor: author, guideId: hidden.id, kind: 'team', id: 8, on: true });
    await bed.editGuide.execute({ editor: author, guideId: hidden.id, revisionid: hidden.state.revisionid, fields: { title: 'Newer' } });
    const old = await bed.viewGuide.execute({ viewer: third, guideId: hidden.id, revisionid: hidden.state.revisionid });
    expect(old.state.title).toBe(hidden.state.title);
    expect(bed.teams.lookups).toBe(before + 1);
    // A past revision carries the guide's lists: its editors may still edit.
    expect(await bed.viewGuide.canEdit(old, third)).toBe(true);
  });
});
