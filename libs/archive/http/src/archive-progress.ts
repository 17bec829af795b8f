/** Follows a build: the number of documents to write, then each one written. */
export interface ArchiveProgress {
  start(total: number): void;
  advance(count?: number): void;
  finish(): void;
}

export const NO_PROGRESS: ArchiveProgress = { start: () => undefined, advance: () => undefined, finish: () => undefined };

/** `1h 02m`, `3m 05s`, `42s`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** The time left at the rate so far; `?` before there is a rate to go by. */
export function eta(done: number, total: number, elapsedMs: number): string {
  if (done <= 0 || elapsedMs <= 0) return '?';
  return duration(((total - done) * elapsedMs) / done);
}

abstract class CountingProgress implements ArchiveProgress {
  protected total = 0;
  protected done = 0;
  protected started = 0;

  constructor(protected readonly now: () => number = Date.now) {}

  start(total: number): void {
    this.total = total;
    this.done = 0;
    this.started = this.now();
    this.show(true);
  }

  advance(count = 1): void {
    this.done = Math.min(this.total, this.done + count);
    this.show(false);
  }

  finish(): void {
    this.done = this.total;
    this.show(true);
    this.end();
  }

  protected percent(): number {
    return this.total ? Math.floor((100 * this.done) / this.total) : 100;
  }

  protected abstract show(force: boolean): void;
  /** After the last line: nothing to do unless a subclass draws in place. */
  protected end(): void {
    return undefined;
  }
}

/** A bar redrawn in place on a terminal: `[#######.......]  45%  4500/10000  ETA 1m 20s`. */
export class TerminalProgress extends CountingProgress {
  private drawn = 0;

  constructor(
    private readonly stream: { write(text: string): unknown; columns?: number },
    now?: () => number,
  ) {
    super(now);
  }

  protected show(force: boolean): void {
    const now = this.now();
    if (!force && now - this.drawn < 100) return;
    this.drawn = now;
    const width = Math.max(10, Math.min(40, (this.stream.columns ?? 80) - 50));
    const filled = this.total ? Math.round((width * this.done) / this.total) : width;
    const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
    const left = this.done >= this.total ? `done in ${duration(now - this.started)}` : `ETA ${eta(this.done, this.total, now - this.started)}`;
    this.stream.write(`\r[${bar}] ${String(this.percent()).padStart(3)}%  ${this.done}/${this.total} documents  ${left}\u001b[K`);
  }

  protected override end(): void {
    this.stream.write('\n');
  }
}

/** Plain lines for logs and pipes: one every 10 % or 10 seconds, whichever comes first. */
export class LineProgress extends CountingProgress {
  private lastPercent = -1;
  private lastAt = 0;

  constructor(
    private readonly line: (text: string) => void,
    now?: () => number,
  ) {
    super(now);
  }

  protected show(force: boolean): void {
    const now = this.now();
    const percent = this.percent();
    if (!force && percent < this.lastPercent + 10 && now - this.lastAt < 10_000) return;
    this.lastPercent = percent;
    this.lastAt = now;
    const left = this.done >= this.total ? `done in ${duration(now - this.started)}` : `ETA ${eta(this.done, this.total, now - this.started)}`;
    this.line(`archive: ${this.done}/${this.total} documents (${percent}%), ${left}`);
  }
}
