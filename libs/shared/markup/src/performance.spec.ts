import { renderInline, renderWiki, toPlainText } from './index.js';

/**
 * The renderer is a linear scan; these inputs are the classic traps for regex-based wiki parsers
 * (unclosed brackets and quote runs re-scanned from every position), up to 200 KB each.
 *
 * What is checked is how the cost grows, not how long it takes: rendering 8× the input (200 KB
 * against 25 KB) costs about 8× as much for a linear scan and 64× for a quadratic one. Cost is this process's CPU time (not
 * wall time, which other processes on a busy machine stretch), the least of five runs; a ratio is
 * measured again, up to three times, while it is over the limit, since a garbage collection of the
 * test worker's heap can land in every run of one measurement, while a quadratic scan is over the
 * limit every time.
 */
const SIZE = 100_000;
const fill = (unit: string, size = SIZE) => unit.repeat(Math.ceil(size / unit.length));

/** Far above linear growth (8), which a busy machine was seen to stretch to 2.4× that ratio, and far below quadratic (64). */
const MAX_GROWTH = 24;
/** Below this much CPU time, timer resolution and fixed costs blur a ratio: the small input is costed as this. */
const FLOOR_MICROS = 2_000;

function cpuMicros(render: () => unknown): number {
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const started = process.cpuUsage();
    render();
    const used = process.cpuUsage(started);
    best = Math.min(best, used.user + used.system);
  }
  return best;
}

/** CPU time for 200 KB over CPU time for 25 KB of the input (the least of up to three measurements). */
function growth(unit: string, render: (raw: string) => unknown): number {
  const small = fill(unit, SIZE / 4);
  const large = fill(unit, SIZE * 2);
  render(large); // the JIT warmed up on the shapes of this input
  let least = Infinity;
  for (let attempt = 0; attempt < 3 && least >= MAX_GROWTH; attempt++) {
    least = Math.min(least, cpuMicros(() => render(large)) / Math.max(cpuMicros(() => render(small)), FLOOR_MICROS));
  }
  return least;
}

describe('cost on up to 200 KB of hostile input grows linearly', () => {
  it.each([
    ["''''"],
    ['[[[['],
    ['[['],
    ['['],
    [']]'],
    ['[[a|'],
    ['[link|'],
    ['[link|https://example.com/|'],
    ['[image|1|'],
    ["'''''x"],
    ["''a'''b"],
    ['=='],
    ['== a ==\n'],
    ['* '],
    ['*#*#*#*#*#*# x\n'],
    ['\n'],
    ['<script>'],
    ['&'],
    ['[[Page Title|label]]'],
    ['[image|7|size=large|align=right]'],
    ["'''[[P|''x'']]''' "],
  ])('%j', (unit) => {
    expect(growth(unit, renderWiki)).toBeLessThan(MAX_GROWTH);
    expect(growth(unit, renderInline)).toBeLessThan(MAX_GROWTH);
    expect(growth(unit, toPlainText)).toBeLessThan(MAX_GROWTH);
  });

  it('one 100 KB line without any newline', () => {
    const unit = "x [[a]] '''b''' [link|/c|d] [e ";
    expect(fill(unit).includes('\n')).toBe(false);
    expect(growth(unit, renderWiki)).toBeLessThan(MAX_GROWTH);
  });

  it('renders a huge quote run as literal text', () => {
    const html = renderInline(fill("''''"));
    expect(html).toBe('&#39;'.repeat(SIZE));
  });
});
