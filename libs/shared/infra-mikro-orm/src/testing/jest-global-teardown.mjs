// Removes what the run shared (its template databases and their media folders), then stops the
// embedded PostgreSQL if the setup started one.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const KEY = Symbol.for('rc.test-postgres');

export default async function globalTeardown() {
  const running = globalThis[KEY];
  if (running === undefined) return;
  globalThis[KEY] = undefined;
  const run = process.env.RC_TEST_RUN;
  if (run) {
    await rm(join(tmpdir(), `rc-tpl-${run}`), { recursive: true, force: true });
    if (running === 'external') await dropTemplates(process.env.DATABASE_URL, run);
  }
  if (running !== 'external') {
    delete process.env.DATABASE_URL;
    await running.stop();
  }
}

async function dropTemplates(url, run) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'rc\\_tpl\\_' || $1 || '\\_%'", [run]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
