import fc from 'fast-check';
import { applyRuns, lineRuns, unifiedDiff } from './text-diff.js';

describe('text diff', () => {
  it('gives line runs that rebuild both sides exactly (final newlines and empty lines included)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', '', 'c d'), { maxLength: 8 }), fc.array(fc.constantFrom('a', 'b', '', 'e'), { maxLength: 8 }), (x, y) => {
        const from = x.join('\n');
        const to = y.join('\n');
        const runs = lineRuns(from, to);
        expect(applyRuns(runs).join('\n')).toBe(to);
        expect(runs.flatMap((r) => (r.type === 'added' ? [] : r.lines)).join('\n')).toBe(from);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps unchanged lines as context and names removed and added ones', () => {
    expect(lineRuns('one\ntwo\nthree', 'one\n2\nthree')).toEqual([
      { type: 'context', lines: ['one'] },
      { type: 'removed', lines: ['two'] },
      { type: 'added', lines: ['2'] },
      { type: 'context', lines: ['three'] },
    ]);
    expect(lineRuns('', '')).toEqual([]);
  });

  it('writes a unified diff with both names and hunks', () => {
    const patch = unifiedDiff('page@1', 'page@2', 'one\ntwo', 'one\n2');
    expect(patch).toContain('--- page@1');
    expect(patch).toContain('+++ page@2');
    expect(patch).toContain('-two');
    expect(patch).toContain('+2');
    expect(unifiedDiff('a', 'b', 'same', 'same')).not.toContain('@@');
  });
});
