import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { concatMap, type Observable } from 'rxjs';
import { GUIDE_VERSIONS_CHANNEL } from '@rc/guides-infra-mikro-orm';
import { PgListener, USER_STANDINGS_CHANNEL } from '@rc/shared-infra-mikro-orm';
import type { Logger } from 'pino';
import pg from 'pg';
import { GuideVersions, type GuideVersionSource } from './guide-versions.js';

/**
 * A small pool of its own for the hot statements of guide reads, without an ORM context (the
 * version with the stored body: see PgGuideBodyStore), and the barrier's markers.
 */
export class GuideVersionLookup implements GuideVersionSource {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string, size = 4) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: size, application_name: 'rc-guide-versions' });
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  /** The pool, for the statements of guide reads (see PgGuideBodyStore). */
  get queryable(): Pick<pg.Pool, 'query'> {
    return this.pool;
  }

  async notify(payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [GUIDE_VERSIONS_CHANNEL, payload]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * Feeds `GuideVersions` in `notify` mode: a LISTEN connection on the versions channel (reads fall
 * back to lookups whenever it is down) and a marker every few seconds, so that a listener that
 * went silent without its connection failing is noticed too.
 */
export class GuideVersionWatch implements OnModuleInit, OnApplicationShutdown {
  private listener: PgListener | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly versions: GuideVersions,
    private readonly lookup: GuideVersionLookup,
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    private readonly heartbeatMs = 5000,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.versions.coherence !== 'notify') return;
    const listener = new PgListener({
      url: this.databaseUrl,
      channels: [GUIDE_VERSIONS_CHANNEL, USER_STANDINGS_CHANNEL],
      onNotify: (channel, payload) => (channel === USER_STANDINGS_CHANNEL ? this.versions.userNotified(payload) : this.versions.notified(payload)),
      onConnect: () => this.versions.connected(),
      onDisconnect: () => {
        this.versions.disconnected();
        this.logger.warn('guide version listener lost: reading versions from the database until it is back');
      },
      onError: (error) => this.logger.debug({ err: error }, 'guide version listener error'),
    });
    this.listener = listener;
    await listener.start();
    this.timer = setInterval(() => void this.versions.heartbeat(listener.connected), this.heartbeatMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.versions.disconnected();
    await this.listener?.stop();
    await this.lookup.close();
  }
}

/**
 * After a request that may have written (any method but GET, HEAD and OPTIONS) and succeeded, waits
 * for `GuideVersions.barrier()` before answering: the change it committed has then been heard, so
 * no read that follows the answer serves the guide's older body from a remembered version.
 */
@Injectable()
export class GuideVersionBarrier implements NestInterceptor {
  constructor(private readonly versions: GuideVersions) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const method = context.switchToHttp().getRequest<{ method: string }>().method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || !this.versions.live) return next.handle();
    return next.handle().pipe(concatMap(async (body: unknown) => (await this.versions.barrier(), body)));
  }
}
