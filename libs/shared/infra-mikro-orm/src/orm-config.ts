import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { EntitySchema } from '@mikro-orm/core';
import type { MigrationObject } from '@mikro-orm/core';
import { ReplicaRoutingDriver } from './read-replicas.js';

export interface OrmConfigInput {
  readonly clientUrl: string;
  /** Every schema, listed explicitly (glob discovery breaks under bundlers). */
  readonly entities: readonly EntitySchema[];
  /** Every migration, in any order: they run sorted by name. */
  readonly migrations: readonly MigrationObject[];
  readonly poolMax?: number;
  readonly log?: (message: string) => void;
  /** Called with each SQL statement the ORM runs (tests count queries with it); off when absent. */
  readonly onQuery?: (sql: string) => void;
  /**
   * Streaming replicas of `clientUrl` that reads may go to: with any, the driver is the
   * {@link ReplicaRoutingDriver}, which sends a statement to a replica only inside a read scope
   * that chose one (see read-replicas.ts); everything else stays on the primary.
   */
  readonly replicaUrls?: readonly string[];
}

/** How a replica is named in health and metrics: its host, port and database, never its credentials. */
export function replicaName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

/** The base configuration every process of the service (API, CLI, tests) builds its ORM from. */
export function ormConfig(input: OrmConfigInput): Options {
  const replicaUrls = input.replicaUrls ?? [];
  return defineConfig({
    clientUrl: input.clientUrl,
    ...(replicaUrls.length
      ? {
          driver: ReplicaRoutingDriver,
          // A replica that cannot be reached within 2 s is given up for the primary (see ReplicaRoutingDriver).
          replicas: replicaUrls.map((clientUrl) => ({ name: replicaName(clientUrl), clientUrl, pool: { min: 0, max: input.poolMax ?? 10 }, driverOptions: { connectionTimeoutMillis: 2000 } })),
        }
      : {}),
    entities: [...input.entities],
    extensions: [Migrator],
    migrations: {
      migrationsList: [...input.migrations].sort((a, b) => a.name.localeCompare(b.name)),
      tableName: 'schema_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    pool: { min: 0, max: input.poolMax ?? 10 },
    forceUtcTimezone: true,
    ensureDatabase: false,
    allowGlobalContext: false,
    debug: input.onQuery ? ['query'] : false,
    colors: false,
    logger: (message: string) => {
      if (input.onQuery && message.startsWith('[query]')) input.onQuery(message.slice('[query] '.length));
      else input.log?.(message);
    },
  });
}
