import type { Violation } from '@rc/shared-kernel';
import { BULLETS, MAX_LINE_LENGTH } from './guide-vocabulary.js';
import { Step, type StepInput } from './step.js';

const line = (text: string, extra: Record<string, unknown> = {}) => ({ text, bullet: 'black', level: 0, ...extra });
const atLevels = (...levels: number[]) => levels.map((level, i) => line(`Line ${i + 1}`, { level }));

/** Creates a step; returns it with the violations collected. */
function create(input: StepInput): { step: Step | null; violations: Violation[] } {
  const violations: Violation[] = [];
  const step = Step.create(input, violations);
  return { step, violations };
}

function stored(input: StepInput, extra: { id?: number; revisionid?: number; orderby?: number } = {}): Step {
  const { step, violations } = create(input);
  expect(violations).toEqual([]);
  return Step.restore({ ...step!.toState(), id: 7, revisionid: 3, orderby: 1, ...extra });
}

describe('Step lines', () => {
  it.each([1, 8])('accepts %i line(s)', (n) => {
    const { step, violations } = create({ lines: Array.from({ length: n }, (_, i) => line(`Line ${i}`)) });
    expect(violations).toEqual([]);
    expect(step?.lines).toHaveLength(n);
  });

  it.each([0, 9])('refuses %i lines, on the field lines', (n) => {
    const { step, violations } = create({ lines: Array.from({ length: n }, (_, i) => line(`Line ${i}`)) });
    expect(step).toBeNull();
    expect(violations).toEqual([{ field: 'lines', message: expect.stringContaining('1 to 8') }]);
  });

  it('requires lines on create, as a list', () => {
    expect(create({ title: 'No lines' }).violations).toEqual([expect.objectContaining({ field: 'lines' })]);
    expect(create({ lines: 'text' }).violations).toEqual([expect.objectContaining({ field: 'lines' })]);
    expect(create({ lines: null }).violations).toEqual([expect.objectContaining({ field: 'lines' })]);
  });

  it('accepts text of 1 to 350 characters, counted in code points', () => {
    expect(create({ lines: [line('x')] }).violations).toEqual([]);
    expect(create({ lines: [line('x'.repeat(MAX_LINE_LENGTH))] }).violations).toEqual([]);
    // 350 emoji: 700 UTF-16 code units, still 350 characters.
    expect(create({ lines: [line('🔧'.repeat(350))] }).violations).toEqual([]);
  });

  it('refuses text of 351 characters, with the index of the line', () => {
    const { violations } = create({ lines: [line('ok'), line('x'.repeat(351))] });
    expect(violations).toEqual([{ field: 'lines', index: 1, message: expect.stringContaining('350') }]);
    expect(create({ lines: [line('🔧'.repeat(351))] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
  });

  it.each([[''], ['   '], ['\n\t']])('refuses empty or blank text %j', (text) => {
    expect(create({ lines: [line(text)] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
  });

  it('refuses a text that is not a string or is missing', () => {
    expect(create({ lines: [{ text: 42 }] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
    expect(create({ lines: [{ bullet: 'black', level: 0 }] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
  });

  it.each(BULLETS.map((b) => [b]))('accepts the bullet %s', (bullet) => {
    const { step, violations } = create({ lines: [line('x', { bullet })] });
    expect(violations).toEqual([]);
    expect(step?.lines[0]?.bullet).toBe(bullet);
  });

  it.each([['purple'], ['Black'], [''], [3], [null]])('refuses the bullet %j', (bullet) => {
    expect(create({ lines: [line('x'), line('y', { bullet })] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 1 })]);
  });

  it('defaults the bullet to black and the level to 0', () => {
    const { step } = create({ lines: [{ text: 'x' }] });
    expect(step?.lines).toEqual([{ lineid: 0, text: 'x', bullet: 'black', level: 0 }]);
  });

  it('accepts levels 0 to 2 and refuses others', () => {
    expect(create({ lines: atLevels(0, 1, 2) }).violations).toEqual([]);
    expect(create({ lines: atLevels(0, 1, 2, 3) }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 3 })]);
    expect(create({ lines: atLevels(0, -1) }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 1 })]);
    expect(create({ lines: atLevels(0, 0.5) }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 1 })]);
    expect(create({ lines: [line('x'), line('y', { level: '1' })] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 1 })]);
  });

  it('requires the first line at level 0', () => {
    expect(create({ lines: atLevels(1) }).violations).toEqual([{ field: 'lines', index: 0, message: expect.stringContaining('first line') }]);
  });

  it('lets a line be at most one level deeper than the line above', () => {
    expect(create({ lines: atLevels(0, 1, 2) }).violations).toEqual([]);
    expect(create({ lines: atLevels(0, 1, 0, 1) }).violations).toEqual([]);
    expect(create({ lines: atLevels(0, 1, 2, 0) }).violations).toEqual([]);
    expect(create({ lines: atLevels(0, 2) }).violations).toEqual([{ field: 'lines', index: 1, message: expect.stringContaining('one level deeper') }]);
    expect(create({ lines: atLevels(0, 1, 0, 2) }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 3 })]);
  });

  it('reports every bad line, each with its index', () => {
    const { violations } = create({ lines: [line('ok'), line(''), line('ok'), line('x', { bullet: 'nope' })] });
    expect(violations.map((v) => [v.field, v.index])).toEqual([
      ['lines', 1],
      ['lines', 3],
    ]);
  });

  it('refuses an unknown line field, naming it', () => {
    const { violations } = create({ lines: [line('ok'), line('x', { colour: 'red' })] });
    expect(violations).toEqual([{ field: 'lines', index: 1, message: expect.stringContaining("'colour'") }]);
  });

  it('refuses a line that is not an object', () => {
    expect(create({ lines: ['just text'] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
    expect(create({ lines: [null] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
    expect(create({ lines: [[line('x')]] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
  });

  it('accepts text_raw as an alias of text', () => {
    const { step, violations } = create({ lines: [{ text_raw: 'Remove the screws', bullet: 'red', level: 0 }] });
    expect(violations).toEqual([]);
    expect(step?.lines).toEqual([{ lineid: 0, text: 'Remove the screws', bullet: 'red', level: 0 }]);
  });

  it('keeps a given lineid and refuses a bad one', () => {
    expect(create({ lines: [line('x', { lineid: 12 })] }).step?.lines[0]?.lineid).toBe(12);
    expect(create({ lines: [line('x', { lineid: null })] }).step?.lines[0]?.lineid).toBe(0);
    expect(create({ lines: [line('x', { lineid: -1 })] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
    expect(create({ lines: [line('x', { lineid: 'a' })] }).violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
  });
});

describe('Step title', () => {
  it('is trimmed and optional', () => {
    expect(create({ title: '  Open the case  ', lines: [line('x')] }).step?.title).toBe('Open the case');
    expect(create({ lines: [line('x')] }).step?.title).toBe('');
  });

  it('is at most 255 characters and a string', () => {
    expect(create({ title: 'x'.repeat(255), lines: [line('x')] }).violations).toEqual([]);
    expect(create({ title: 'x'.repeat(256), lines: [line('x')] }).violations).toEqual([expect.objectContaining({ field: 'title' })]);
    expect(create({ title: 5, lines: [line('x')] }).violations).toEqual([expect.objectContaining({ field: 'title' })]);
  });
});

describe('Step media', () => {
  const withMedia = (media: unknown) => create({ lines: [line('x')], media });

  it('is none by default', () => {
    expect(create({ lines: [line('x')] }).step?.media).toEqual({ type: 'none' });
  });

  it('accepts an image list of at most 3 positive integer ids', () => {
    expect(withMedia({ type: 'image', data: [1] }).step?.media).toEqual({ type: 'image', imageIds: [1] });
    expect(withMedia({ type: 'image', data: [4, 5, 6] }).step?.media).toEqual({ type: 'image', imageIds: [4, 5, 6] });
  });

  it('takes an empty image list as no media', () => {
    expect(withMedia({ type: 'image', data: [] }).step?.media).toEqual({ type: 'none' });
  });

  it.each([
    ['four images', [1, 2, 3, 4]],
    ['a zero id', [0]],
    ['a negative id', [-3]],
    ['a fractional id', [1.5]],
    ['a string id', ['1']],
    ['no list', 1],
  ])('refuses an image list with %s', (_label, data) => {
    const { step, violations } = withMedia({ type: 'image', data });
    expect(step).toBeNull();
    expect(violations).toEqual([expect.objectContaining({ field: 'media' })]);
  });

  it('takes {type: object, data: id} as a video', () => {
    expect(withMedia({ type: 'object', data: 12 }).step?.media).toEqual({ type: 'video', objectId: 12 });
    expect(withMedia({ type: 'video', data: 12 }).step?.media).toEqual({ type: 'video', objectId: 12 });
    expect(withMedia({ type: 'embed', data: 13 }).step?.media).toEqual({ type: 'embed', objectId: 13 });
  });

  it('takes data null, or media null, as no media', () => {
    expect(withMedia({ type: 'object', data: null }).step?.media).toEqual({ type: 'none' });
    expect(withMedia(null).step?.media).toEqual({ type: 'none' });
  });

  it('refuses a bad object id', () => {
    expect(withMedia({ type: 'object', data: 0 }).violations).toEqual([expect.objectContaining({ field: 'media' })]);
    expect(withMedia({ type: 'object', data: 'x' }).violations).toEqual([expect.objectContaining({ field: 'media' })]);
  });

  it.each([[{ type: 'audio', data: 1 }], [{ data: [1] }], ['image'], [[1, 2]], [7]])('refuses the media %j', (media) => {
    expect(withMedia(media).violations).toEqual([expect.objectContaining({ field: 'media' })]);
  });
});

describe('Step.create', () => {
  it('makes a new, changed step without id or revision', () => {
    const { step } = create({ title: 'T', lines: [line('x')] });
    expect(step).toBeInstanceOf(Step);
    expect(step?.toState()).toEqual({ id: 0, orderby: 0, revisionid: 0, title: 'T', lines: [{ lineid: 0, text: 'x', bullet: 'black', level: 0 }], media: { type: 'none' } });
    expect(step?.changed).toBe(true);
  });

  it('collects violations of several fields at once', () => {
    const { violations } = create({ title: 3, lines: [], media: { type: 'sound' } });
    expect(violations.map((v) => v.field)).toEqual(['title', 'lines', 'media']);
  });

  it('puts the index of the step on step-level violations when given', () => {
    const violations: Violation[] = [];
    Step.create({ title: 3, lines: [], media: 'x' }, violations, 4);
    expect(violations.map((v) => [v.field, v.index])).toEqual([
      ['title', 4],
      ['lines', 4],
      ['media', 4],
    ]);
  });
});

describe('Step.edit', () => {
  it('applies the given parts only and marks the step changed', () => {
    const step = stored({ title: 'Old', lines: [line('a')], media: { type: 'image', data: [1] } });
    const violations: Violation[] = [];
    expect(step.edit({ title: 'New' }, violations)).toBe(true);
    expect(violations).toEqual([]);
    expect(step.title).toBe('New');
    expect(step.lines).toEqual([{ lineid: 0, text: 'a', bullet: 'black', level: 0 }]);
    expect(step.media).toEqual({ type: 'image', imageIds: [1] });
    expect(step.changed).toBe(true);
  });

  it('is a no-op when the values are the same', () => {
    const step = stored({ title: 'Same', lines: [line('a'), line('b', { level: 1 })], media: { type: 'object', data: 4 } });
    const violations: Violation[] = [];
    expect(step.edit({ title: ' Same ', lines: [line('a'), line('b', { level: 1 })], media: { type: 'object', data: 4 } }, violations)).toBe(false);
    expect(step.edit({}, violations)).toBe(false);
    expect(violations).toEqual([]);
    expect(step.changed).toBe(false);
  });

  it('keeps the ids of lines written again, by position', () => {
    const step = Step.restore({ id: 1, orderby: 1, revisionid: 5, title: '', media: { type: 'none' }, lines: [{ lineid: 10, text: 'a', bullet: 'black', level: 0 }, { lineid: 11, text: 'b', bullet: 'black', level: 0 }] });
    const violations: Violation[] = [];
    step.edit({ lines: [line('a'), line('b changed'), line('c')] }, violations);
    expect(step.lines.map((l) => l.lineid)).toEqual([10, 11, 0]);
  });

  it('changes nothing when the input is bad', () => {
    const step = stored({ title: 'Old', lines: [line('a')] });
    const before = step.toState();
    const violations: Violation[] = [];
    expect(step.edit({ title: 'New', lines: [line('a', { level: 2 })] }, violations)).toBe(false);
    expect(violations).toEqual([expect.objectContaining({ field: 'lines', index: 0 })]);
    expect(step.toState()).toEqual(before);
    expect(step.changed).toBe(false);
  });

  it('moves without being changed', () => {
    const step = stored({ lines: [line('a')] });
    step.moveTo(3);
    expect(step.orderby).toBe(3);
    expect(step.changed).toBe(false);
  });
});
