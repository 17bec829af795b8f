import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig, type OrmConfigInput } from '../orm-config.js';

/** The server tests create their databases on: `DATABASE_URL`, set by the Jest global setup. */
export function testServerUrl(): string {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is not set: run the tests through Jest (its global setup starts PostgreSQL)');
  return url;
}

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database on the test server (or the one given), so test files never see each other's
 * rows: empty, or a copy of `template` (a database nobody is connected to).
 */
export async function createTestDatabase(options: { template?: string; serverUrl?: string } = {}): Promise<TestDatabase> {
  const server = new URL(options.serverUrl ?? testServerUrl());
  const name = `rc_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(server, (c) => c.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(server, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** Runs `fn` on a connection to the test server's default database (for statements on databases). */
export function onTestServer<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  return withAdmin(new URL(testServerUrl()), fn);
}

async function withAdmin<T>(server: URL, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestOrm {
  readonly orm: MikroORM;
  readonly url: string;
  /** Empties every table the given schemas map, keeping reference data seeded by migrations. */
  truncate(tables: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** A migrated database with an ORM on it: the real thing, for infra tests. */
export async function createTestOrm(input: Omit<OrmConfigInput, 'clientUrl'>): Promise<TestOrm> {
  const db = await createTestDatabase();
  const orm = await MikroORM.init(ormConfig({ ...input, clientUrl: db.url, poolMax: input.poolMax ?? 25 }));
  await orm.migrator.up();
  return {
    orm,
    url: db.url,
    async truncate(tables) {
      if (tables.length) await orm.em.getConnection().execute(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
    },
    async close() {
      await orm.close(true);
      await db.drop();
    },
  };
}

/**
 * The statements MikroORM would run to make the database match the schemas, less the ones that
 * only drop what the hand-written migrations add on purpose and the schemas do not model
 * (foreign keys between ids, check constraints, indexes, the content stamp's triggers). What remains is real drift: a missing
 * table or column, or a column of another type.
 */
export async function schemaDrift(orm: MikroORM): Promise<string[]> {
  const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: false });
  return sql
    .split(/;\s*/)
    .map((s) => s.trim())
    .filter((s) => s && !/^drop index /i.test(s) && !/ drop constraint /i.test(s))
    // The content stamp's statement triggers (contentStampTriggerSql), added by each context's migration to tables of its own.
    .filter((s) => !/^drop (trigger|function) if exists "[a-z_]+_content_stamp(_fn)?"/i.test(s));
}
