import { renderInline, renderWiki, toPlainText } from './index.js';

/**
 * The renderer is a linear scan; these inputs are the classic traps for regex-based wiki parsers
 * (unclosed brackets and quote runs re-scanned from every position), up to 200 KB each.
 *
 * What is checked is how the cost grows, not how long it takes: rendering 16× the input (200 KB
 * against 12.5 KB) costs about 16× as much for a linear scan and 256× for a quadratic one. Cost is
 * this process's CPU time (not wall time, which other processes on a busy machine stretch), the
 * least of three samples; a ratio is measured again, up to three times, while it is over the limit,
 * since a garbage collection of the test worker's heap can land in every run of one measurement,
 * while a quadratic scan is over the limit every time.
 */
const SIZE = 100_000;
const fill = (unit: string, size = SIZE) => unit.repeat(Math.ceil(size / unit.length));

/**
 * Far above linear growth (16) and far below quadratic (256). The garbage collection of the many
 * small objects a large input makes was seen to stretch a linear scan's ratio to 3× on a busy
 * machine (47 for 16×; a limit of 3× for 8× failed once in CI at 3.3×).
 */
const MAX_GROWTH = 128;
/** A measurement repeats a render until it has used at least this much CPU time, so timer resolution and fixed costs do not blur a small input's cost. */
const MIN_SAMPLE_MICROS = 5_000;

/** CPU microseconds of one render: the least of three samples, each the mean over enough repetitions. */
function cpuMicros(render: () => unknown): number {
  let repetitions = 1;
  for (;;) {
    const started = process.cpuUsage();
    for (let r = 0; r < repetitions; r++) render();
    const used = process.cpuUsage(started);
    if (used.user + used.system >= MIN_SAMPLE_MICROS || repetitions >= 1 << 16) break;
    repetitions *= 2;
  }
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = process.cpuUsage();
    for (let r = 0; r < repetitions; r++) render();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / repetitions);
  }
  return best;
}

/** CPU time for 200 KB over CPU time for 12.5 KB of the input (the least of up to three measurements). */
function growth(unit: string, render: (raw: string) => unknown): number {
  const small = fill(unit, SIZE / 8);
  const large = fill(unit, SIZE * 2);
  render(large); // the JIT warmed up on the shapes of this input
  let least = Infinity;
  for (let attempt = 0; attempt < 3 && least >= MAX_GROWTH; attempt++) {
    least = Math.min(least, cpuMicros(() => render(large)) / cpuMicros(() => render(small)));
  }
  return least;
}

describe('the measurement', () => {
  it('tells a quadratic scan apart', () => {
    // Re-scans to the end of the input from every 256th position: quadratic, with a constant large
    // enough that the re-scans, not a call's fixed costs, are the small input's cost too.
    const quadratic = (raw: string) => {
      let found = 0;
      for (let i = 0; i < raw.length; i += 256) for (let j = i; j < raw.length; j++) if (raw.charCodeAt(j) === 0) found++;
      return found;
    };
    // The most of up to three measurements (the limit is checked the other way round here: a busy
    // machine stretches the small input's cost as it does the large one's).
    let most = 0;
    for (let attempt = 0; attempt < 3 && most <= MAX_GROWTH; attempt++) most = Math.max(most, growth("'''''x", quadratic));
    expect(most).toBeGreaterThan(MAX_GROWTH);
  });
});

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
