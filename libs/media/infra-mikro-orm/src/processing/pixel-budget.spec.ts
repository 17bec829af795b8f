import { PixelBudget } from './pixel-budget.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('PixelBudget', () => {
  it('runs renders together while their pixels fit, and holds back one that does not until room is given back', async () => {
    const budget = new PixelBudget(24);
    const first = await budget.hold(12);
    const second = await budget.hold(12);
    expect(budget.held).toBe(24);
    let third: (() => void) | null = null;
    void budget.hold(10).then((release) => (third = release));
    await settled();
    expect(third).toBeNull();
    first();
    await settled();
    expect(third).not.toBeNull();
    expect(budget.held).toBe(22);
    second();
    third!();
    expect(budget.held).toBe(0);
  });

  it('runs an image larger than the budget alone, and starts the waiting in the order they asked', async () => {
    const budget = new PixelBudget(10);
    const huge = await budget.hold(50);
    const started: string[] = [];
    const small = budget.hold(2).then((release) => (started.push('small'), release));
    const big = budget.hold(9).then((release) => (started.push('big'), release));
    await settled();
    expect(started).toEqual([]);
    huge();
    const releaseSmall = await small;
    await settled();
    // The second waits for the first: 2 + 9 do not fit in 10.
    expect(started).toEqual(['small']);
    releaseSmall();
    (await big)();
    expect(started).toEqual(['small', 'big']);
    expect(budget.held).toBe(0);
  });

  it('gives room back once however often the release is called', async () => {
    const budget = new PixelBudget(10);
    const release = await budget.hold(6);
    release();
    release();
    expect(budget.held).toBe(0);
    const again = await budget.hold(10);
    expect(budget.held).toBe(10);
    again();
  });
});
