import { ConflictError } from '@rc/shared-kernel';
import { InvalidGuideError, NotGuideEditorError, StaleGuideRevisionError, StaleStepRevisionError, StepNotFoundError } from '../guides.errors.js';
import type { Guide } from '../model/guide.js';
import { admin, author, guidesTestBed, linesOf, other, rejectionOf } from '../testing/index.js';

const texts = (guide: Guide) => guide.steps.map((s) => s.lines[0]?.text);
const orders = (guide: Guide) => guide.steps.map((s) => s.orderby);

async function violationsOf(promise: Promise<unknown>) {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(InvalidGuideError);
  return (error as InvalidGuideError).violations;
}

describe('AddStep', () => {
  it('appends a stored step with an id and a revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const after = await bed.addStep.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, step: { title: 'Open', lines: linesOf('Heat the screen') } });
    const step = after.steps[0]!;
    expect(step.id).toBeGreaterThan(0);
    expect(step.revisionid).toBeGreaterThan(0);
    expect(step.changed).toBe(false);
    const stored = await bed.stored(guide.id);
    expect(stored.steps.map((s) => s.toState())).toEqual([step.toState()]);
    expect(stored.state.revisionid).toBeGreaterThan(guide.state.revisionid);
  });

  it('appends by default', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two']);
    await bed.appendStep(guide.id, { lines: linesOf('Three') });
    const stored = await bed.stored(guide.id);
    expect(texts(stored)).toEqual(['One', 'Two', 'Three']);
    expect(orders(stored)).toEqual([1, 2, 3]);
  });

  it('inserts at orderby and renumbers 1..n', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two', 'Three']);
    await bed.appendStep(guide.id, { lines: linesOf('Between'), orderby: 2 });
    await bed.appendStep(guide.id, { lines: linesOf('First'), orderby: 1 });
    await bed.appendStep(guide.id, { lines: linesOf('Last'), orderby: 6 });
    const stored = await bed.stored(guide.id);
    expect(texts(stored)).toEqual(['First', 'One', 'Between', 'Two', 'Three', 'Last']);
    expect(orders(stored)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses an orderby out of range and stores nothing', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One']);
    for (const orderby of [0, 3, -1, 'first']) {
      expect(await violationsOf(bed.appendStep(guide.id, { lines: linesOf('x'), orderby }))).toEqual([expect.objectContaining({ field: 'orderby' })]);
    }
    expect(texts(await bed.stored(guide.id))).toEqual(['One']);
  });

  it('refuses bad lines with the index of the line', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const violations = await violationsOf(bed.appendStep(guide.id, { lines: [{ text: 'ok', level: 0 }, { text: 'too deep', level: 2 }] }));
    expect(violations).toEqual([expect.objectContaining({ field: 'lines', index: 1 })]);
    expect((await bed.stored(guide.id)).steps).toEqual([]);
  });

  it('checks the guide revision when given', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    await bed.appendStep(guide.id);
    const error = await rejectionOf(bed.addStep.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, step: { lines: linesOf('x') } }));
    expect(error).toBeInstanceOf(StaleGuideRevisionError);
    expect((await bed.stored(guide.id)).steps).toHaveLength(1);
  });

  it('refuses another user, lets an admin', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    expect(await rejectionOf(bed.appendStep(guide.id, undefined, other))).toBeInstanceOf(NotGuideEditorError);
    await bed.appendStep(guide.id, undefined, admin);
    expect((await bed.stored(guide.id)).steps).toHaveLength(1);
  });

  it('emits no event on a public guide', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    bed.outbox.clear();
    await bed.appendStep(guide.id);
    expect(bed.outbox.events).toEqual([]);
  });
});

describe('EditStep', () => {
  it('stores the change', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One']);
    const step = guide.steps[0]!;
    await bed.editStep.execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { title: 'Renamed', media: { type: 'image', data: [5] } } });
    expect((await bed.stored(guide.id)).step(step.id).toState()).toMatchObject({ title: 'Renamed', media: { type: 'image', imageIds: [5] }, lines: step.lines });
  });

  it('refuses a stale step revision with StaleStepRevisionError carrying guide and step ids', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One']);
    const step = guide.steps[0]!;
    await bed.editStep.execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { title: 'First edit' } });
    const error = await rejectionOf(bed.editStep.execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { title: 'Second edit' } }));
    expect(error).toBeInstanceOf(StaleStepRevisionError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ guideId: guide.id, stepId: step.id });
    expect((await bed.stored(guide.id)).step(step.id).title).toBe('First edit');
  });

  it('keeps both revisions on a no-op edit', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One']);
    const step = guide.steps[0]!;
    const after = await bed.editStep.execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { lines: linesOf('One') } });
    expect(after.state.revisionid).toBe(guide.state.revisionid);
    expect(after.step(step.id).revisionid).toBe(step.revisionid);
  });

  it('does not find a step of another guide', async () => {
    const bed = guidesTestBed();
    const a = await bed.createGuideWithSteps(['A']);
    const b = await bed.createGuideWithSteps(['B']);
    const foreign = b.steps[0]!;
    expect(await rejectionOf(bed.editStep.execute({ editor: author, guideId: a.id, stepId: foreign.id, revisionid: foreign.revisionid, step: { title: 'x' } }))).toBeInstanceOf(
      StepNotFoundError,
    );
  });

  it('refuses bad content and stores nothing', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One']);
    const step = guide.steps[0]!;
    const violations = await violationsOf(bed.editStep.execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { media: { type: 'image', data: [1, 2, 3, 4] } } }));
    expect(violations).toEqual([expect.objectContaining({ field: 'media' })]);
    expect((await bed.stored(guide.id)).state.revisionid).toBe(guide.state.revisionid);
  });
});

describe('RemoveStep', () => {
  it('removes the step and renumbers the others', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two', 'Three']);
    const two = guide.steps[1]!;
    await bed.removeStep.execute({ editor: author, guideId: guide.id, stepId: two.id, revisionid: two.revisionid });
    const stored = await bed.stored(guide.id);
    expect(texts(stored)).toEqual(['One', 'Three']);
    expect(orders(stored)).toEqual([1, 2]);
    expect(stored.state.revisionid).toBeGreaterThan(guide.state.revisionid);
    expect(await rejectionOf(bed.removeStep.execute({ editor: author, guideId: guide.id, stepId: two.id, revisionid: two.revisionid }))).toBeInstanceOf(StepNotFoundError);
  });

  it('refuses a stale step revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One']);
    const step = guide.steps[0]!;
    const error = await rejectionOf(bed.removeStep.execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid - 1 }));
    expect(error).toBeInstanceOf(StaleStepRevisionError);
    expect(error).toMatchObject({ guideId: guide.id, stepId: step.id });
    expect((await bed.stored(guide.id)).steps).toHaveLength(1);
  });

  it('refuses another user', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One'], { public: true });
    const step = guide.steps[0]!;
    expect(await rejectionOf(bed.removeStep.execute({ editor: other, guideId: guide.id, stepId: step.id, revisionid: step.revisionid }))).toBeInstanceOf(NotGuideEditorError);
  });
});

describe('ReorderSteps', () => {
  it('stores the new order', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two', 'Three']);
    const [s1, s2, s3] = guide.steps.map((s) => s.id);
    const after = await bed.reorderSteps.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, stepids: [s3, s1, s2] });
    const stored = await bed.stored(guide.id);
    expect(texts(stored)).toEqual(['Three', 'One', 'Two']);
    expect(orders(stored)).toEqual([1, 2, 3]);
    expect(stored.state.revisionid).toBe(after.state.revisionid);
    expect(after.state.revisionid).toBeGreaterThan(guide.state.revisionid);
  });

  it('takes the same order as a no-op: no new revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two']);
    await bed.reorderSteps.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, stepids: guide.steps.map((s) => s.id) });
    expect(bed.guides.revisionsOf(guide.id).at(-1)).toBe(guide.state.revisionid);
    expect((await bed.stored(guide.id)).state.revisionid).toBe(guide.state.revisionid);
  });

  it('requires a permutation of the guide steps', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two', 'Three']);
    const foreign = (await bed.createGuideWithSteps(['Other'])).steps[0]!.id;
    const [s1, s2, s3] = guide.steps.map((s) => s.id);
    for (const stepids of [
      [s1, s2],
      [s1, s2, s2],
      [s1, s2, foreign],
      [s1, s2, s3, foreign],
      [],
      null,
    ]) {
      expect(await violationsOf(bed.reorderSteps.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, stepids }))).toEqual([
        expect.objectContaining({ field: 'stepids' }),
      ]);
    }
    expect(texts(await bed.stored(guide.id))).toEqual(['One', 'Two', 'Three']);
  });

  it('refuses a stale guide revision', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideWithSteps(['One', 'Two']);
    await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { summary: 'x' } });
    const ids = guide.steps.map((s) => s.id).reverse();
    expect(await rejectionOf(bed.reorderSteps.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, stepids: ids }))).toBeInstanceOf(
      StaleGuideRevisionError,
    );
    expect(texts(await bed.stored(guide.id))).toEqual(['One', 'Two']);
  });
});
