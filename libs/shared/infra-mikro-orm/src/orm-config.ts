import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { EntitySchema } from '@mikro-orm/core';
import type { MigrationObject } from '@mikro-orm/core';

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
}

/** The base configuration every process of the service (API, CLI, tests) builds its ORM from. */
export function ormConfig(input: OrmConfigInput): Options {
  return defineConfig({
    clientUrl: input.clientUrl,
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
