import { PermissionDeniedError } from '@rc/shared-kernel';
import { GuideNotFoundError, GuidePrivateError, RevisionNotFoundError } from '../guides.errors.js';
import { Guide, type Editor, type GuideId } from '../model/guide.js';
import { admin, author, guidesTestBed, linesOf, other, rejectionOf } from '../testing/index.js';

describe('ViewGuide', () => {
  it('shows a public guide to anyone, signed in or not', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    for (const viewer of [null, other, author, admin]) {
      const seen = await bed.viewGuide.execute({ viewer, guideId: guide.id });
      expect(seen).toBeInstanceOf(Guide);
      expect(seen.state).toEqual(guide.state);
    }
  });

  it('refuses a private guide to others with GuidePrivateError, shows it to its author and admins', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    for (const viewer of [null, other]) {
      const error = await rejectionOf(bed.viewGuide.execute({ viewer, guideId: guide.id }));
      expect(error).toBeInstanceOf(GuidePrivateError);
      expect(error).toBeInstanceOf(PermissionDeniedError);
    }
    expect((await bed.viewGuide.execute({ viewer: author, guideId: guide.id })).id).toBe(guide.id);
    expect((await bed.viewGuide.execute({ viewer: admin, guideId: guide.id })).id).toBe(guide.id);
  });

  it('says who may edit a guide from its editors alone, as the guide itself does, looking teams up only when they decide', async () => {
    const member: Editor = { userId: 7, isAdmin: false };
    const bed = guidesTestBed({ teams: { 7: [40], 2: [41] } });
    const editors = { authorId: author.userId, userIds: [5], teamIds: [40] };
    const cases: [Editor | null, boolean][] = [[null, false], [author, true], [admin, true], [{ userId: 5, isAdmin: false }, true], [member, true], [other, false]];
    for (const [viewer, expected] of cases) expect({ viewer, may: await bed.viewGuide.mayEdit(editors, viewer) }).toEqual({ viewer, may: expected });
    // Only the member and the other user needed their teams: the author, an Admin and a collaborator are decided without.
    expect(bed.teams.lookups).toBe(2);
    expect(await bed.viewGuide.mayEdit({ ...editors, teamIds: [] }, member)).toBe(false);
    expect(bed.teams.lookups).toBe(2);
    // The same rule as the aggregate's.
    const guide = Guide.restore({ ...(await bed.createGuide({ public: true })).state }, [], { userIds: [5], teamIds: [40] });
    for (const [viewer] of cases) expect(guide.canEdit(viewer && { ...viewer, teamIds: viewer.userId === 7 ? [40] : viewer.userId === 2 ? [41] : [] })).toBe(await bed.viewGuide.mayEdit({ ...editors, authorId: guide.state.authorId }, viewer));
  });

  it('does not find an unknown guide', async () => {
    const bed = guidesTestBed();
    expect(await rejectionOf(bed.viewGuide.execute({ viewer: admin, guideId: 404 as GuideId }))).toBeInstanceOf(GuideNotFoundError);
  });

  it('shows the current revision when asked for it by number, to anyone who can see the guide', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    expect((await bed.viewGuide.execute({ viewer: null, guideId: guide.id, revisionid: guide.state.revisionid })).state.revisionid).toBe(guide.state.revisionid);
  });

  describe('old revisions', () => {
    async function twoRevisions(isPublic: boolean) {
      const bed = guidesTestBed();
      const first = await bed.createGuideWithSteps(['Old step'], { title: 'Old title', public: isPublic });
      const step = first.steps[0]!;
      await bed.editStep.execute({ editor: author, guideId: first.id, stepId: step.id, revisionid: step.revisionid, step: { lines: linesOf('New step') } });
      const now = await bed.stored(first.id);
      const second = await bed.editGuide.execute({ editor: author, guideId: first.id, revisionid: now.state.revisionid, fields: { title: 'New title' } });
      return { bed, first, second };
    }

    it('shows the author an old revision as it was', async () => {
      const { bed, first, second } = await twoRevisions(false);
      const old = await bed.viewGuide.execute({ viewer: author, guideId: first.id, revisionid: first.state.revisionid });
      expect(old).toBeInstanceOf(Guide);
      expect(old.state).toMatchObject({ title: 'Old title', revisionid: first.state.revisionid });
      expect(old.steps.map((s) => s.lines[0]?.text)).toEqual(['Old step']);
      expect(old.steps.map((s) => s.toState())).toEqual(first.steps.map((s) => s.toState()));
      const current = await bed.viewGuide.execute({ viewer: author, guideId: first.id });
      expect(current.state).toMatchObject({ title: 'New title', revisionid: second.state.revisionid });
      expect(current.steps.map((s) => s.lines[0]?.text)).toEqual(['New step']);
    });

    it('shows an admin an old revision of a guide of someone else', async () => {
      const { bed, first } = await twoRevisions(false);
      expect((await bed.viewGuide.execute({ viewer: admin, guideId: first.id, revisionid: first.state.revisionid })).state.title).toBe('Old title');
    });

    it('shows anyone an old revision of a public guide: its history is as public as the guide', async () => {
      const { bed, first } = await twoRevisions(true);
      for (const viewer of [null, other]) {
        expect((await bed.viewGuide.execute({ viewer, guideId: first.id, revisionid: first.state.revisionid })).state.title).toBe('Old title');
      }
    });

    it('refuses an old revision of a private guide to a stranger, shows it to a collaborator', async () => {
      const { bed, first } = await twoRevisions(false);
      for (const viewer of [null, other]) {
        expect(await rejectionOf(bed.viewGuide.execute({ viewer, guideId: first.id, revisionid: first.state.revisionid }))).toBeInstanceOf(GuidePrivateError);
      }
      await bed.changeGuideAccess.execute({ editor: author, guideId: first.id, kind: 'user', id: other.userId, on: true });
      expect((await bed.viewGuide.execute({ viewer: other, guideId: first.id, revisionid: first.state.revisionid })).state.title).toBe('Old title');
    });

    it('answers RevisionNotFoundError for an unknown revision', async () => {
      const { bed, first, second } = await twoRevisions(false);
      expect(await rejectionOf(bed.viewGuide.execute({ viewer: author, guideId: first.id, revisionid: second.state.revisionid + 1000 }))).toBeInstanceOf(RevisionNotFoundError);
    });

    it('answers RevisionNotFoundError for a revision of another guide', async () => {
      const { bed, first } = await twoRevisions(false);
      const another = await bed.createGuide();
      expect(await rejectionOf(bed.viewGuide.execute({ viewer: author, guideId: another.id, revisionid: first.state.revisionid }))).toBeInstanceOf(RevisionNotFoundError);
    });
  });
});
