import { ViewWindows } from './view-windows.js';

describe('ViewWindows', () => {
  it('numbers wall-clock windows of refreshMs; none with 0', () => {
    let now = 59_999;
    const windows = new ViewWindows(30_000, () => now);
    expect(windows.current()).toBe(1);
    now = 60_000;
    expect(windows.current()).toBe(2);
    expect(new ViewWindows(0, () => now).current()).toBeNull();
  });

  it('settles on the first total of a window for the rest of it', () => {
    let now = 30_000;
    const windows = new ViewWindows(30_000, () => now);
    expect(windows.settle(7, 5)).toBe(5);
    expect(windows.settle(7, 9)).toBe(5);
    now = 60_000;
    expect(windows.settle(7, 9)).toBe(9);
    expect(new ViewWindows(0, () => now).settle(7, 11)).toBe(11);
  });
});
