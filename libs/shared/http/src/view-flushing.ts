import type { BeforeApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ViewCounter } from '@rc/shared-kernel';
import type { Logger } from 'pino';

/**
 * Flushes a context's view counter (see ViewCounter) every `intervalMs` in the background, and
 * once more when the application shuts down (before the database pool closes), so views counted
 * by a stopping instance are kept. A failed flush is logged; its counts go with the next one.
 */
export class ViewFlushing implements OnModuleInit, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly counter: ViewCounter,
    private readonly intervalMs: number,
    private readonly logger: Pick<Logger, 'warn'>,
    /** Names the counter in the log. */
    private readonly name: string,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Writes what was counted so far (also for tests and operators that want the totals now). */
  async flush(): Promise<number> {
    try {
      return await this.counter.flush();
    } catch (err) {
      this.logger.warn({ err, counter: this.name, unflushed: this.counter.unflushed }, 'views not flushed: kept for the next flush');
      return 0;
    }
  }
}
