import pg from 'pg';

export interface PgListenerOptions {
  readonly url: string;
  readonly channels: readonly string[];
  onNotify(channel: string, payload: string): void;
  /**
   * Called after every (re)connection, once LISTEN is in place: notifications sent while the
   * listener was away are lost, so the caller catches up here (re-reads what it watches).
   */
  onConnect?(): void;
  onError?(error: Error): void;
  /** Called when a live connection is lost (notifications are missed until `onConnect`). */
  onDisconnect?(): void;
  /** Delay before reconnecting after the connection drops. */
  readonly reconnectMs?: number;
}

/**
 * A dedicated connection that LISTENs on a few channels and reconnects when it drops. PostgreSQL
 * sends a NOTIFY only when the transaction that issued it commits.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly options: PgListenerOptions) {}

  /** Connects (retrying in the background if the first attempt fails). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  get connected(): boolean {
    return this.client !== null;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.options.url, application_name: 'rc-listener' });
    client.on('notification', (n) => this.options.onNotify(n.channel, n.payload ?? ''));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      for (const channel of this.options.channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.options.onConnect?.();
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (error) this.options.onError?.(error);
    if (this.client === client) {
      this.client = null;
      this.options.onDisconnect?.();
    }
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, this.options.reconnectMs ?? 1000);
    this.retry.unref();
  }
}

/**
 * The channel on which contexts announce that what a user object shows of a user (name, reputation,
 * teams) changed (payload: the user id), so caches of bodies that embed user objects stay exact.
 */
export const USER_STANDINGS_CHANNEL = 'user_standings';

/**
 * A row trigger body announcing `idColumn` of the changed row on `channel` (for a delete, the old
 * row's); on UPDATE only when one of `watched` changed. Used by a schema and its migration alike
 * (MikroORM compares the two).
 */
export function notifyTriggerBody(channel: string, idColumn: string, watched: readonly string[] = []): string {
  const unchanged = watched.map((c) => `new.${c} is not distinct from old.${c}`).join(' and ');
  return (
    (watched.length ? `if tg_op = 'UPDATE' and ${unchanged} then return null; end if; ` : '') +
    `perform pg_notify('${channel}', coalesce(new.${idColumn}, old.${idColumn})::text); return null;`
  );
}

/** `notifyTriggerBody` on `USER_STANDINGS_CHANNEL`, with the user id. */
export function userStandingTriggerBody(userIdColumn: string, watched: readonly string[] = []): string {
  return notifyTriggerBody(USER_STANDINGS_CHANNEL, userIdColumn, watched);
}

/**
 * The DDL of an AFTER … FOR EACH ROW trigger with its function, named as MikroORM names the
 * trigger an EntitySchema declares (`<table>_<trigger>_fn`), so migrations and schemas agree.
 */
export function rowTriggerSql(table: string, trigger: string, events: readonly ('INSERT' | 'UPDATE' | 'DELETE')[], body: string): string {
  const fn = `${table}_${trigger}_fn`;
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ begin ${body} end; $$;
CREATE TRIGGER ${trigger} AFTER ${events.join(' OR ')} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}
