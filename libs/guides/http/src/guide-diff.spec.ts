import fc from 'fast-check';
import { Guide, type GuideId, type GuideSnapshot, type GuideState, type Line, type StepState } from '@rc/guides-domain';
import { applyGuideDiff, diffGuideContent, guideContentOf, guideDiffBody } from './guide-diff.js';

const BASE: GuideState = {
  id: 1 as GuideId,
  revisionid: 10,
  authorId: 1,
  contributorIds: [1],
  title: 'iPhone 12 Battery Replacement',
  category: 'iPhone 12',
  subject: 'Battery',
  type: 'replacement',
  difficulty: 'Moderate',
  summary: 'Replace a worn battery.',
  introduction: 'A worn battery\ndrains fast.',
  conclusion: '',
  timeRequiredMin: 600,
  timeRequiredMax: 1200,
  imageId: null,
  parts: [],
  tools: [],
  prerequisites: [],
  flags: [],
  documentIds: [],
  featuredDocumentId: null,
  introObjectId: null,
  isPublic: true,
  locale: 'en',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  modifiedAt: new Date('2026-01-01T00:00:00Z'),
  publishedAt: null,
  deletedAt: null,
};

const step = (id: number, orderby: number, texts: string[], title = ''): StepState => ({
  id,
  orderby,
  revisionid: id * 10,
  title,
  lines: texts.map((text, i) => ({ lineid: id * 100 + i, text, bullet: 'black', level: 0 })),
  media: { type: 'none' },
});

const snapshot = (state: Partial<GuideState>, steps: StepState[]): GuideSnapshot => ({ state: { ...BASE, ...state }, steps });

describe('guide diff', () => {
  const a = snapshot({}, [step(1, 1, ['Open it']), step(2, 2, ['Remove the screws', 'Keep them']), step(3, 3, ['Lift the battery']), step(5, 4, ['Tape'])]);
  const b = snapshot({ revisionid: 12, title: 'iPhone 12 Battery', introduction: 'A worn battery\nempties fast.' }, [
    step(5, 1, ['Tape']),
    { ...step(2, 2, ['Remove the four screws', 'Keep them']), title: 'Screws' },
    step(3, 3, ['Lift the battery']),
    step(4, 4, ['Close it']),
  ]);

  it('names the changed fields (markup line by line) and the steps added, removed, moved and edited', () => {
    const diff = guideDiffBody(1, a, b);
    expect(diff).toMatchObject({ guideid: 1, from_revisionid: 10, to_revisionid: 12 });
    expect(diff.fields.map((f) => f.field)).toEqual(['title', 'introduction']);
    expect(diff.fields[1]!.lines).toEqual([
      { type: 'context', lines: ['A worn battery'] },
      { type: 'removed', lines: ['drains fast.'] },
      { type: 'added', lines: ['empties fast.'] },
    ]);
    expect(diff.steps.added.map((s) => [s.stepid, s.orderby])).toEqual([[4, 4]]);
    expect(diff.steps.removed).toEqual([{ stepid: 1, orderby: 1, title: '' }]);
    // 2 and 3 keep their order: only 5 moved.
    expect(diff.steps.moved).toEqual([{ stepid: 5, from_orderby: 4, to_orderby: 1 }]);
    expect(diff.steps.edited).toHaveLength(1);
    expect(diff.steps.edited[0]).toMatchObject({ stepid: 2, title: { from: '', to: 'Screws' } });
    expect(diff.steps.edited[0]!.lines!.map((r) => [r.type, r.lines.map((l: Line) => l.text)])).toEqual([
      ['removed', ['Remove the screws']],
      ['added', ['Remove the four screws']],
      ['context', ['Keep them']],
    ]);
    expect(diff.unified).toContain('--- guide/1@10');
    expect(diff.unified).toContain('+++ guide/1@12');
    expect(diff.unified).toContain('-title: iPhone 12 Battery Replacement');
    expect(diff.unified).toContain('+title: iPhone 12 Battery');
    expect(diff.unified).toContain('+* [black] Close it');
  });

  it('is empty between a revision and itself', () => {
    const diff = guideDiffBody(1, a, a);
    expect(diff.fields).toEqual([]);
    expect(diff.steps).toEqual({ added: [], removed: [], moved: [], edited: [] });
    expect(diff.unified).not.toContain('@@');
  });

  // Random guides, and random edits of them through the aggregate's own methods: applying the
  // diff of the two to the first gives the second.
  const text = fc.array(fc.constantFrom('a', 'b', 'c', 'Remove the screw', ''), { maxLength: 5 }).map((lines) => lines.join('\n'));
  const lineText = fc.constantFrom('Open it', 'Pry', 'Lift', 'Remove the screw', 'Keep it');
  const lines = fc.array(fc.record({ text: lineText, bullet: fc.constantFrom('black', 'red'), level: fc.constant(0) }), { minLength: 1, maxLength: 4 });
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('fields' as const), fields: fc.record({ title: fc.constantFrom('A', 'B'), introduction: text, conclusion: text, summary: text, difficulty: fc.constantFrom('Easy', 'Moderate', null) }, { requiredKeys: [] }) }),
    fc.record({ kind: fc.constant('add' as const), at: fc.nat(), lines }),
    fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), lines, title: fc.option(fc.constantFrom('T1', 'T2'), { nil: undefined }) }),
    fc.record({ kind: fc.constant('reorder' as const), seed: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }) }),
  );

  it('applying diff(A, B) to A gives B, for random guides and random edits', () => {
    fc.assert(
      fc.property(fc.array(lines, { maxLength: 5 }), text, fc.array(edit, { maxLength: 8 }), (initialSteps, intro, edits) => {
        const editor = { userId: 1, isAdmin: true };
        const now = new Date('2026-02-01T00:00:00Z');
        let nextId = 1;
        const stepsA = initialSteps.map((l, i) => ({ ...step(nextId++, i + 1, []), lines: l.map((x, j) => ({ ...x, lineid: j + 1 })) }) as StepState);
        const from = snapshot({ introduction: intro }, stepsA);
        const guide = Guide.restore(from.state, from.steps);
        for (const e of edits) {
          const n = guide.steps.length;
          if (e.kind === 'fields') guide.edit(editor, e.fields, now);
          else if (e.kind === 'add' && n < 30) {
            const added = guide.addStep(editor, { lines: e.lines, orderby: (e.at % (n + 1)) + 1 }, now);
            Object.assign(added, { id: nextId++ });
          } else if (e.kind === 'remove' && n) {
            const s = guide.steps[e.at % n]!;
            guide.removeStep(editor, s.id, s.revisionid, now);
          } else if (e.kind === 'edit' && n) {
            const s = guide.steps[e.at % n]!;
            guide.editStep(editor, s.id, s.revisionid, { lines: e.lines, ...(e.title ? { title: e.title } : {}) }, now);
          } else if (e.kind === 'reorder' && n) {
            const ids = guide.steps.map((s) => s.id);
            const shuffled = ids.map((id, i) => ({ id, key: e.seed[i % e.seed.length]! * 31 + i })).sort((x, y) => x.key - y.key).map((x) => x.id);
            guide.reorderSteps(editor, shuffled, now);
          }
        }
        const to: GuideSnapshot = { state: guide.state, steps: guide.steps.map((s) => s.toState()) };
        const a = guideContentOf(from);
        const b = guideContentOf(to);
        expect(applyGuideDiff(a, diffGuideContent(a, b))).toEqual(b);
        // And back: the diff of B to A, applied to B, gives A.
        expect(applyGuideDiff(b, diffGuideContent(b, a))).toEqual(a);
      }),
      { numRuns: 300 },
    );
  });
});
