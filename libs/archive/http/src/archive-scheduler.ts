import type { Logger } from 'pino';
import type { ArchiveBuilder } from './archive-builder.js';
import type { ArchiveStore } from './archive-store.js';

/**
 * Rebuilds the archive in the running server when the content changed: every interval it reads
 * the content version (a few index and sequence reads) and compares it with the one the latest
 * archive was built from; only a difference starts a build. Never inside a request; one build at
 * a time; stopping aborts a build in progress (its partial file is removed, the previous archive
 * stays served).
 */
export class ArchiveScheduler {
  private timer: NodeJS.Timeout | null = null;
  private check: Promise<void> | null = null;
  private abort: AbortController | null = null;

  constructor(
    private readonly builder: ArchiveBuilder,
    private readonly store: ArchiveStore,
    private readonly logger: Logger,
  ) {}

  /** First check one interval after the start, then every interval. */
  start(intervalSeconds: number): void {
    if (intervalSeconds <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), intervalSeconds * 1000);
    this.timer.unref();
    this.logger.info({ context: 'archive', intervalSeconds }, 'archive rebuild scheduled when content changes');
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
    this.abort?.abort(new Error('the server is stopping'));
    await this.check;
  }

  private async checkAndBuild(): Promise<void> {
    try {
      if (this.builder.isRunning) return;
      const [version, latest] = await Promise.all([this.builder.contentVersion(), this.store.latest()]);
      if (latest && latest.contentVersion === version) return;
      this.logger.info({ context: 'archive', from: latest?.contentVersion ?? null, to: version }, 'content changed: building the archive');
      this.abort = new AbortController();
      const result = await this.builder.build({ signal: this.abort.signal });
      this.logger.info(
        { context: 'archive', archive: result.archive.name, guides: result.guides, categories: result.categories, bytes: result.archive.size, ms: result.ms },
        'archive built',
      );
    } catch (error) {
      if (this.abort?.signal.aborted) this.logger.info({ context: 'archive' }, 'archive build stopped');
      else this.logger.error({ context: 'archive', err: error }, 'archive build failed; the previous archive stays served');
    } finally {
      this.abort = null;
    }
  }
}
