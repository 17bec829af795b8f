import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { formatLsn, inReadScope, parseLsn, ReplicaRoutingDriver, type Lsn, type ReadScope, type ReplicaSet } from '@rc/shared-infra-mikro-orm';
import type { ApiRequest } from '@rc/shared-http';
import type { Response } from 'express';
import { catchError, concatMap, defer, from, Observable, switchMap } from 'rxjs';

/**
 * The response header that tells a client how recent what it was answered is (the primary's WAL
 * position it is at or below), and the request header a client sends it back in: a read carrying
 * it is served by a replica only once that replica has replayed that far.
 */
export const CONSISTENCY_HEADER = 'X-Consistency-Token';

/** How many callers' positions a process remembers (the least recently raised are forgotten first). */
const MAX_CALLERS = 100_000;

/**
 * Read-your-writes across the primary and its replicas, for this process. Each caller (a signed-in
 * user) is remembered with the highest WAL position of anything it wrote or was answered; its reads
 * go to a replica only once that replica has replayed that position, else to the primary. Clients
 * get the same guarantee across processes by sending back {@link CONSISTENCY_HEADER}.
 */
export class ReadConsistency implements OnModuleInit, OnApplicationShutdown {
  private readonly callers = new LRUCache<number, Lsn>({ max: MAX_CALLERS });

  constructor(readonly replicas: ReplicaSet | null) {}

  onModuleInit(): void {
    this.replicas?.start();
  }

  onApplicationShutdown(): void {
    this.replicas?.stop();
  }

  /** The position a caller must read at or after (`null`: none known). */
  required(caller: number | null, echoed: Lsn | null): Lsn | null {
    const known = caller === null ? null : (this.callers.peek(caller) ?? null);
    if (known === null) return echoed;
    return echoed === null || known > echoed ? known : echoed;
  }

  /** Remembers that a caller wrote or was answered at `lsn`. */
  raise(caller: number, lsn: Lsn): void {
    const known = this.callers.peek(caller);
    if (known !== undefined && known >= lsn) return;
    this.callers.set(caller, lsn);
  }

  /** How many callers are remembered (for the tests and the metrics). */
  get remembered(): number {
    return this.callers.size;
  }
}

export function readConsistencyOf(orm: MikroORM): ReadConsistency {
  const driver = orm.em.getDriver();
  return new ReadConsistency(driver instanceof ReplicaRoutingDriver && driver.replicaSet.size > 0 ? driver.replicaSet : null);
}

const SAFE = new Set(['GET', 'HEAD']);

function callerOf(req: ApiRequest): number | null {
  const id = (req.principal as { userId?: unknown } | undefined)?.userId;
  return typeof id === 'number' ? id : null;
}

/** The user a sign-in or a registration answered a token for (`{ userid, authToken }`), who is not the request's caller yet. */
function signedIn(body: unknown): number | null {
  if (!body || typeof body !== 'object') return null;
  const { userid, authToken } = body as { userid?: unknown; authToken?: unknown };
  return typeof userid === 'number' && typeof authToken === 'string' ? userid : null;
}

/**
 * Routes each request's statements (it runs after the guards, which read tokens on the primary):
 * a GET or HEAD reads from a replica that has replayed everything its caller wrote or was
 * answered (else from the primary); any other method stays on the primary. Every answer carries
 * {@link CONSISTENCY_HEADER}, and the caller's position is raised to it.
 */
@Injectable()
export class ReadRoutingInterceptor implements NestInterceptor {
  constructor(private readonly consistency: ReadConsistency) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const replicas = this.consistency.replicas;
    if (!replicas || context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    const res = http.getResponse<Response>();
    const caller = callerOf(req);
    const echoedHeader = req.header(CONSISTENCY_HEADER);
    const echoed = echoedHeader ? parseLsn(echoedHeader) : null;
    const reads = SAFE.has(req.method);
    const required = this.consistency.required(caller, echoed);

    /** After the handler: the position this answer is at or below, told to the client and remembered for the caller. */
    const stamp = async (scope: ReadScope, body: unknown) => {
      let lsn: Lsn | null;
      if (scope.replica !== null) {
        // One replica only ever replays forward, so what it was known to have replayed bounds the
        // next read of it; between several, the position must be read after the statements.
        const known = replicas.size === 1 ? replicas.replayed(scope.replica) : await replicas.replayedNow(scope.replica);
        lsn = known === null ? null : required !== null && required > known ? required : known;
      } else {
        lsn = await replicas.primaryPosition().catch(() => null);
      }
      if (lsn === null) return;
      if (!res.headersSent) res.setHeader(CONSISTENCY_HEADER, formatLsn(lsn));
      if (caller !== null) this.consistency.raise(caller, lsn);
      const newcomer = reads ? null : signedIn(body);
      if (newcomer !== null) this.consistency.raise(newcomer, lsn);
    };

    return defer(async (): Promise<ReadScope> => ({ replica: reads ? await replicas.pick(required) : null, fellBack: false, wrote: false })).pipe(
      switchMap((scope) =>
        new Observable<unknown>((subscriber) => inReadScope(scope, () => next.handle().subscribe(subscriber))).pipe(
          concatMap(async (body: unknown) => (await stamp(scope, body), body)),
          catchError((error: unknown) => from(stamp(scope, undefined).then(() => Promise.reject(error)))),
        ),
      ),
    );
  }
}
