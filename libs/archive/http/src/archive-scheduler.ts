import type { Logger } from 'pino';
import type { ArchiveBuilder } from './archive-builder.js';
import type { ChildBuildOptions, ChildBuildResult } from './archive-child.js';
import { eta, type ArchiveProgress } from './archive-progress.js';
import type { ArchiveStore } from './archive-store.js';

/** What the scheduler is doing, for the answer to a client that asks for an archive not built yet. */
export type ArchiveSchedule =
  | { readonly state: 'building'; readonly done: number; readonly total: number; readonly eta: string }
  | { readonly state: 'waiting'; readonly nextCheckAt: Date }
  | { readonly state: 'off' };

/** Counts a build's documents, so the schedule can say how far the build is. */
class BuildCount implements ArchiveProgress {
  done = 0;
  total = 0;
  readonly started = Date.now();
  start(total: number): void {
    this.total = total;
  }
  advance(count = 1): void {
    this.done += count;
  }
  finish(): void {
    this.done = this.total;
  }
}

/** Runs one build out of this process (buildInChild with the configured process). */
export type RunArchiveBuild = (options: ChildBuildOptions) => Promise<ChildBuildResult>;

/**
 * Rebuilds the archive when the server's content changed: at start when no archive exists yet (a
 * fresh service has one minutes after its first start), then every interval it reads the content
 * version (a few index and sequence reads) and compares it with the one the latest archive was
 * built from; only a difference starts a build. The build runs in a child process with a heap of
 * its own (`run`), followed over IPC, so the server's heap and caches stay the requests'. Never
 * inside a request; one build at a time; stopping kills a build in progress (its partial file is
 * removed, the previous archive stays served).
 */
export class ArchiveScheduler {
  private timer: NodeJS.Timeout | null = null;
  private check: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private building: BuildCount | null = null;
  private pid: number | null = null;
  private stopped = false;
  private intervalMs = 0;
  private lastTick = 0;

  constructor(
    private readonly builder: ArchiveBuilder,
    private readonly store: ArchiveStore,
    private readonly logger: Logger,
    private readonly run: RunArchiveBuild,
  ) {}

  /** The process id of the build in progress, if any. */
  get buildPid(): number | null {
    return this.pid;
  }

  /**
   * A first build now, in the background, when no archive exists; then a check every interval.
   */
  start(intervalSeconds: number): void {
    if (intervalSeconds <= 0 || this.timer) return;
    this.intervalMs = intervalSeconds * 1000;
    this.lastTick = Date.now();
    this.timer = setInterval(() => {
      this.lastTick = Date.now();
      void this.runOnce();
    }, this.intervalMs);
    this.timer.unref();
    this.logger.info({ context: 'archive', intervalSeconds }, 'archive rebuild scheduled when content changes');
    void this.store.latest().then(
      (latest) => {
        if (latest || !this.timer) return;
        this.logger.info({ context: 'archive' }, 'no archive yet: building the first one in the background');
        void this.runOnce();
      },
      (error: unknown) => this.logger.error({ context: 'archive', err: error }, 'could not read the archive store'),
    );
  }

  /** Building (how far), waiting for the next check (when), or off (no timer in this process). */
  schedule(): ArchiveSchedule {
    const building = this.building;
    if (building) return { state: 'building', done: building.done, total: building.total, eta: eta(building.done, building.total, Date.now() - building.started) };
    if (this.timer) return { state: 'waiting', nextCheckAt: new Date(this.lastTick + this.intervalMs) };
    return { state: 'off' };
  }

  /** One check (and build when due); a check already under way is joined. */
  runOnce(): Promise<void> {
    this.check ??= this.checkAndBuild().finally(() => {
      this.check = null;
    });
    return this.check;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopped = true;
    this.abort?.abort(new Error('the server is stopping'));
    await this.check;
  }

  private async checkAndBuild(): Promise<void> {
    try {
      const [version, latest] = await Promise.all([this.builder.contentVersion(), this.store.latest()]);
      if ((latest && latest.contentVersion === version) || this.stopped) return;
      this.logger.info({ context: 'archive', from: latest?.contentVersion ?? null, to: version }, 'content changed: building the archive');
      this.abort = new AbortController();
      this.building = new BuildCount();
      const result = await this.run({ signal: this.abort.signal, progress: this.building, onStart: (pid) => (this.pid = pid) });
      this.logger.info(
        {
          context: 'archive',
          archive: result.archive.name,
          guides: result.guides,
          categories: result.categories,
          mediaFiles: result.mediaFiles,
          bytes: result.archive.size,
          ms: result.ms,
          pid: result.pid,
          peakRssMb: result.peakRssMb,
        },
        'archive built',
      );
    } catch (error) {
      if (this.abort?.signal.aborted) this.logger.info({ context: 'archive' }, 'archive build stopped');
      else this.logger.error({ context: 'archive', err: error }, 'archive build failed; the previous archive stays served');
    } finally {
      this.abort = null;
      this.building = null;
      this.pid = null;
    }
  }
}
