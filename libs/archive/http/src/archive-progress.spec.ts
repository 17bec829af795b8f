import { duration, eta, LineProgress, TerminalProgress } from './archive-progress.js';

describe('archive progress', () => {
  it('formats durations and the time left', () => {
    expect(duration(42_000)).toBe('42s');
    expect(duration(185_000)).toBe('3m 05s');
    expect(duration(3_720_000)).toBe('1h 02m');
    expect(eta(0, 100, 1000)).toBe('?');
    expect(eta(25, 100, 10_000)).toBe('30s');
  });

  it('prints plain lines every 10 % (or 10 s) with the ETA, and a last line when done', () => {
    let now = 0;
    const lines: string[] = [];
    const progress = new LineProgress((l) => lines.push(l), () => now);
    progress.start(100);
    for (let i = 0; i < 100; i++) {
      now += 100;
      progress.advance();
    }
    progress.finish();
    expect(lines[0]).toBe('archive: 0/100 documents (0%), ETA ?');
    expect(lines[1]).toBe('archive: 10/100 documents (10%), ETA 9s');
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe('archive: 100/100 documents (100%), done in 10s');
  });

  it('redraws a bar in place on a terminal', () => {
    let now = 0;
    let text = '';
    const progress = new TerminalProgress({ write: (t: string) => (text += t), columns: 80 }, () => now);
    progress.start(4);
    now = 1000;
    progress.advance(2);
    expect(text).toContain('\r[###############...............]  50%  2/4 documents  ETA 1s');
    progress.finish();
    expect(text.endsWith('done in 1s\u001b[K\n')).toBe(true);
  });
});
