import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { pruneContentChanges } from '@rc/shared-infra-mikro-orm';
import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Keeps the content stamp's table of changes short (its count is read on every kept list or page
 * read): every `everyMs`, counted changes move into the base, which leaves the stamp unchanged. On
 * a connection of its own to the primary, apart from the ORM's pool and its requests.
 */
export class ContentStampPruning implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly pool: pg.Pool;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    databaseUrl: string,
    private readonly logger: Logger,
    private readonly everyMs = 10_000,
  ) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 1, application_name: 'rc-content-stamp' });
    // An idle connection dropped by the server must not crash the process; the next pass reconnects.
    this.pool.on('error', () => undefined);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune(), this.everyMs);
    this.timer.unref();
  }

  /** One pruning pass (also for the tests): answers how many changes went into the base. */
  prune(): Promise<number> {
    const pass = this.running.then(() => pruneContentChanges(this.pool)).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'pruning the content stamp failed (it is tried again)');
      return 0;
    });
    this.running = pass;
    return pass;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.pool.end();
  }
}
