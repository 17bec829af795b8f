// The references the API is measured against, one process each:
//   floor   a minimal node:http + pg server answering GET /api/2.0/guides/{id} with one prepared
//           SQL statement that builds the whole body in PostgreSQL (no cache: the hand-written minimum),
//           and GET /api/2.0/comments/{id} (a comment thread) the same way;
//   static  the same server answering every guide request with one body precomputed in memory
//           (what Node's HTTP stack does on this machine);
//   lookup  the static body, sent after one indexed query per request (the guide's revision): what
//           a cache of bodies checked against the database on every request can reach at best.
// Usage: node bench/dist/reference-server.js floor|static|lookup DATABASE_URL BASE_URL [STATIC_GUIDE_ID]
// Prints `ready <port>` once listening on an ephemeral loopback port.
import { createServer, type ServerResponse } from 'node:http';
import pg from 'pg';
import { floorSql, threadSql } from './lib/floor-sql.js';

const [mode, databaseUrl, baseUrl, staticId] = process.argv.slice(2);
if ((mode !== 'floor' && mode !== 'static' && mode !== 'lookup') || !databaseUrl || !baseUrl) {
  process.stderr.write('usage: reference-server.js floor|static|lookup DATABASE_URL BASE_URL [STATIC_GUIDE_ID]\n');
  process.exit(2);
}

// The API's pool holds 10 connections (MikroORM's default here): the floor gets the same. Without
// JIT: the planner's estimate of the guide's one statement (a subquery per image shown) passes
// PostgreSQL's JIT thresholds, and compiling it costs seconds for a statement that runs in
// milliseconds; an OLTP reference runs without it.
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: '-c jit=off' });
pool.on('error', (error) => process.stderr.write(`idle connection: ${error.message}\n`));
let statement = { name: 'guide', text: '' };
let thread = { name: 'thread', text: '' };
const PATH = /^\/api\/2\.0\/guides\/([0-9]{1,9})(?:\?.*)?$/;
const THREAD_PATH = /^\/api\/2\.0\/comments\/([0-9]{1,9})(?:\?.*)?$/;
const NOT_FOUND = Buffer.from('{"error":true,"message":"Guide not found"}');
const COMMENT_NOT_FOUND = Buffer.from('{"error":true,"message":"Comment not found"}');
const INTERNAL = Buffer.from('{"error":true,"message":"Internal error"}');

function send(res: ServerResponse, status: number, body: Buffer): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}

async function bodyOf(query: { name: string; text: string }, id: number): Promise<Buffer | null> {
  const { rows } = await pool.query<{ body: string }>({ ...query, values: [id] });
  return rows[0] ? Buffer.from(rows[0].body) : null;
}

const guideBody = (id: number): Promise<Buffer | null> => bodyOf(statement, id);

function answer(res: ServerResponse, body: Promise<Buffer | null>, notFound: Buffer): void {
  body.then(
    (found) => (found ? send(res, 200, found) : send(res, 404, notFound)),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      send(res, 500, INTERNAL);
    },
  );
}

async function main(): Promise<void> {
  const { rows } = await pool.query<{ reputation: boolean; teams: boolean; comments: boolean }>(
    `SELECT to_regclass('reputation_totals') IS NOT NULL AS reputation, to_regclass('team_members') IS NOT NULL AS teams, to_regclass('comments') IS NOT NULL AS comments`,
  );
  const tables = { reputationTotals: rows[0]!.reputation, teamMembers: rows[0]!.teams, comments: rows[0]!.comments };
  statement = { name: 'guide', text: floorSql(baseUrl!, tables) };
  thread = { name: 'thread', text: threadSql(baseUrl!, tables) };
  const fixed = mode === 'floor' ? null : await guideBody(Number(staticId ?? 1));
  if (mode !== 'floor' && !fixed) throw new Error(`guide ${staticId} has no public body`);
  if (mode === 'static') await pool.end();
  const lookup = { name: 'revision', text: 'SELECT revisionid FROM guides WHERE id = $1 AND is_public AND deleted_at IS NULL' };
  const server = createServer((req, res) => {
    const threadMatch = mode === 'floor' && req.method === 'GET' ? THREAD_PATH.exec(req.url ?? '') : null;
    if (threadMatch) return answer(res, bodyOf(thread, Number(threadMatch[1])), COMMENT_NOT_FOUND);
    const match = req.method === 'GET' ? PATH.exec(req.url ?? '') : null;
    if (!match) return send(res, 404, NOT_FOUND);
    if (mode === 'static') return send(res, 200, fixed!);
    if (mode === 'lookup') {
      return void pool.query({ ...lookup, values: [Number(match[1])] }).then(
        ({ rows }) => (rows.length ? send(res, 200, fixed!) : send(res, 404, NOT_FOUND)),
        () => send(res, 500, INTERNAL),
      );
    }
    answer(res, guideBody(Number(match[1])), NOT_FOUND);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`ready ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void pool.end().catch(() => undefined);
    setTimeout(() => process.exit(0), 200).unref();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
