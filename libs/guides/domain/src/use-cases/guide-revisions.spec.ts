import { author, guidesTestBed, linesOf } from '../testing/index.js';

/** How revisions move when guides and steps are stored through the repository. */
describe('revisions', () => {
  it('gives a new guide a revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    expect(guide.state.revisionid).toBeGreaterThan(0);
    expect(bed.guides.revisionsOf(guide.id)).toEqual([guide.state.revisionid]);
  });

  it('gives each change a new, higher revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const seen = [guide.state.revisionid];
    for (const summary of ['one', 'two', 'three']) {
      const edited = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: seen.at(-1)!, fields: { summary } });
      seen.push(edited.state.revisionid);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(new Set(seen).size).toBe(4);
    expect(bed.guides.revisionsOf(guide.id)).toEqual(seen);
  });

  it('keeps the revision on a no-op edit', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ summary: 'Same' });
    const edited = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { summary: 'Same', category: 'iPhone 12' } });
    expect(edited.state.revisionid).toBe(guide.state.revisionid);
    expect((await bed.stored(guide.id)).state.revisionid).toBe(guide.state.revisionid);
    expect(bed.guides.revisionsOf(guide.id)).toEqual([guide.state.revisionid]);
  });

  it('gives an edited step and its guide new revisions; other steps keep theirs', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two', 'Three']);
    const [s1, s2, s3] = guide.steps;
    const edited = await bed.editStep.execute({ editor: author, guideId: guide.id, stepId: s2!.id, revisionid: s2!.revisionid, step: { lines: linesOf('Two, better') } });
    const stored = await bed.stored(guide.id);
    expect(stored.state.revisionid).toBe(edited.state.revisionid);
    expect(stored.state.revisionid).toBeGreaterThan(guide.state.revisionid);
    expect(stored.step(s2!.id).revisionid).toBeGreaterThan(s2!.revisionid);
    expect(stored.step(s1!.id).revisionid).toBe(s1!.revisionid);
    expect(stored.step(s3!.id).revisionid).toBe(s3!.revisionid);
    expect(stored.step(s2!.id).lines.map((l) => l.text)).toEqual(['Two, better']);
  });

  it('keeps both revisions on a no-op step edit', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One']);
    const step = guide.steps[0]!;
    await bed.editStep.execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { lines: linesOf('One'), title: '' } });
    const stored = await bed.stored(guide.id);
    expect(stored.state.revisionid).toBe(guide.state.revisionid);
    expect(stored.step(step.id).revisionid).toBe(step.revisionid);
  });

  it('gives the guide a new revision when steps move, without changing the steps revisions', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two']);
    const [s1, s2] = guide.steps;
    await bed.reorderSteps.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, stepids: [s2!.id, s1!.id] });
    const stored = await bed.stored(guide.id);
    expect(stored.state.revisionid).toBeGreaterThan(guide.state.revisionid);
    expect(stored.steps.map((s) => [s.id, s.revisionid])).toEqual([
      [s2!.id, s2!.revisionid],
      [s1!.id, s1!.revisionid],
    ]);
  });

  it('hands out revision ids from one counter across guides and steps', async () => {
    const bed = guidesTestBed();
    const a = await bed.createGuideWithSteps(['A1', 'A2']);
    const b = await bed.createGuideWithSteps(['B1']);
    await bed.editGuide.execute({ editor: author, guideId: a.id, revisionid: a.state.revisionid, fields: { summary: 'a' } });
    const revisions = [...bed.guides.revisionsOf(a.id), ...bed.guides.revisionsOf(b.id), ...a.steps.map((s) => s.revisionid), ...b.steps.map((s) => s.revisionid)];
    expect(new Set(revisions).size).toBe(revisions.length);
    expect(Math.max(...revisions)).toBe(bed.guides.lastRevision);
  });

  it('keeps a snapshot of each revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One'], { title: 'First title' });
    const edited = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'Second title' } });
    const old = await bed.guides.snapshot(guide.id, guide.state.revisionid);
    expect(old?.state).toMatchObject({ title: 'First title', revisionid: guide.state.revisionid });
    expect(old?.steps.map((s) => s.lines[0]?.text)).toEqual(['One']);
    expect((await bed.guides.snapshot(guide.id, edited.state.revisionid))?.state.title).toBe('Second title');
  });
});
