// Records what the built API answers on the demo data, so that two versions of the code can be
// compared byte for byte (`diff -r`):
//
//   npm run build && node tools/compare-gets/compare-gets.mjs --out ../gets-before
//   ...change the code...
//   npm run build && node tools/compare-gets/compare-gets.mjs --out ../gets-after
//   diff -r ../gets-before ../gets-after
//
// It starts `apps/api/dist/main.js` on a fresh embedded PostgreSQL (a temporary DATA_DIR, never
// DATABASE_URL) with the demo data, waits until the guides' events have reached reputation and the
// offline archive is built, then asks a fixed list of requests (every GET route of the OpenAPI
// document, with parameters that hit the demo data, and a few non-GET requests answered 405) and
// writes, per request, its status, the headers that carry meaning and the body.
//
// Normalised, because two fresh loads of the demo data legitimately differ there (and nowhere else):
// - tokens: `GET /user` answers the caller's token, a random string;
// - times: UNIX seconds and ISO-8601 date-times that fall within the run are written `<time>`
//   (the demo content is created when it is loaded);
// - the order of the badges a user earned while the demo data loaded (most recent first, they are
//   milliseconds apart): they are listed by badge id;
// - the length of a gzipped answer (its body is compared decoded);
// - the archive: its name and built date carry the time of its build, its ETag and size are those
//   of the ZIP container; the ZIP itself is recorded as its entries (name, date, content) instead of
//   its bytes, in the order they appear.
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API = '/api/2.0';

function args() {
  const argv = process.argv.slice(2);
  const out = argv[argv.indexOf('--out') + 1];
  if (!argv.includes('--out') || !out) throw new Error('usage: node tools/compare-gets/compare-gets.mjs --out <folder> [--no-build]');
  return { out, build: !argv.includes('--no-build') };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The requests: [method, path, as] where `as` names the caller (anonymous, alice, admin). */
const REQUESTS = [
  // Guides.
  ['GET', '/guides'],
  ['GET', '/guides?limit=2&offset=1&order=DESC'],
  ['GET', '/guides?filter=replacement,teardown'],
  ['GET', '/guides?guideids=3,1,2,999'],
  ['GET', '/guides?modifiedSince=1000000000'],
  ['GET', '/guides?pretty'],
  ['GET', '/guides?limit=abc'],
  ['GET', '/guides/featured'],
  ['GET', '/guides/1'],
  ['GET', '/guides/2'],
  ['GET', '/guides/2', 'alice'],
  ['GET', '/guides/2?pretty'],
  ['GET', '/guides/2?excludePrerequisiteSteps'],
  ['GET', '/guides/2?revisionid=1', 'admin'],
  ['GET', '/guides/3'],
  ['GET', '/guides/4'],
  ['GET', '/guides/5'],
  ['GET', '/guides/6'],
  ['GET', '/guides/6', 'bob'],
  ['GET', '/guides/999'],
  ['GET', '/guides/abc'],
  ['GET', '/guides/2?type=XML'],
  ['GET', '/guides/2?type=XML&pretty'],
  ['GET', '/guides/1?type=XML'],
  ['GET', '/guides/999?type=XML'],
  ['GET', '/guides/2/tags'],
  ['GET', '/guides/6/tags'],
  ['GET', '/user/guides', 'alice'],
  ['GET', '/user/guides'],
  ['GET', '/users/2/guides'],
  ['GET', '/users/3/guides?limit=1'],
  ['GET', '/user/favorites/guides', 'alice'],
  ['GET', '/users/2/favorites/guides'],
  ['GET', '/users/3/favorites/guides'],
  ['GET', '/user/completions', 'alice'],
  ['GET', '/users/2/completions'],
  ['GET', '/users/3/completions'],
  // Categories and wikis.
  ['GET', '/categories'],
  ['GET', '/categories?withDisplayTitles'],
  ['GET', '/categories?requireGuides'],
  ['GET', '/categories?requireGuides&withDisplayTitles&pretty'],
  ['GET', '/categories/all'],
  ['GET', '/categories/all?limit=3&offset=2'],
  ['GET', '/categories/iPhone%2012'],
  ['GET', '/categories/Electronics'],
  ['GET', '/categories/iPhone%2012?type=XML'],
  ['GET', '/categories/Nowhere'],
  ['GET', '/wikis/CATEGORY'],
  ['GET', '/wikis/CATEGORY?display=leaves'],
  ['GET', '/wikis/CATEGORY?display=hierarchy'],
  ['GET', '/wikis/WIKI'],
  ['GET', '/wikis/NOPE'],
  ['GET', '/wikis/CATEGORY/iPhone_12'],
  ['GET', '/wikis/CATEGORY/iPhone_12', 'admin'],
  ['GET', '/wikis/CATEGORY/Nintendo_Switch'],
  ['GET', '/wikis/CATEGORY/Electronics?pretty'],
  ['GET', '/wikis/CATEGORY/iPhone_12?revisionid=1'],
  ['GET', '/wikis/CATEGORY/Nowhere'],
  ['GET', '/wikis/CATEGORY/iPhone_12/tags'],
  // Users, teams, badges.
  ['GET', '/user', 'alice'],
  ['GET', '/user', 'admin'],
  ['GET', '/user'],
  ['GET', '/users'],
  ['GET', '/users?limit=2&order=DESC'],
  ['GET', '/users/1'],
  ['GET', '/users/2'],
  ['GET', '/users/3'],
  ['GET', '/users/999'],
  ['GET', '/teams'],
  ['GET', '/teams?order=DESC&limit=1'],
  ['GET', '/teams?newMemberSince=1000000000'],
  ['GET', '/teams/1'],
  ['GET', '/teams/2'],
  ['GET', '/teams/999'],
  ['GET', '/badges'],
  ['GET', '/users/2/badges'],
  ['GET', '/users/3/badges?category=Guides'],
  ['GET', '/users/999/badges'],
  ['GET', '/user/badges', 'alice'],
  // Search.
  ['GET', '/search/battery'],
  ['GET', '/search/iphone?filter=guide,category'],
  ['GET', '/search/iphone?limit=1&offset=1'],
  ['GET', '/search/%22coffee%20maker%22'],
  ['GET', '/search/nothing-matches-this'],
  ['GET', '/suggest/joy'],
  ['GET', '/suggest/iph?doctypes=topic,guide'],
  ['GET', '/suggest/guideid:2'],
  ['GET', '/suggest/x?doctypes=nope'],
  // Offline archive.
  ['GET', '/archives'],
  ['GET', '/archives/omanual'],
  ['GET', '/archives/omanual/nope.zip'],
  // The HTTP contract: unknown paths, 405 with Allow, OpenAPI.
  ['GET', '/nowhere'],
  ['GET', '/api/1.0/guides', 'anonymous', { raw: true }],
  ['DELETE', '/categories'],
  ['PUT', '/guides'],
  ['POST', '/guides/2'],
  ['PATCH', '/badges'],
  ['DELETE', '/users/2/badges'],
  ['GET', '/docs-json'],
];

const KEPT_HEADERS = ['content-type', 'content-length', 'allow', 'cache-control', 'content-encoding', 'content-disposition', 'accept-ranges', 'vary'];

function normaliser(from, to) {
  const lo = Math.floor(from / 1000) - 5;
  const hi = Math.ceil(to / 1000) + 5;
  return (text) =>
    text
      .replace(/\b1[0-9]{9}\b/g, (n) => (Number(n) >= lo && Number(n) <= hi ? '<time>' : n))
      .replace(/\b(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z)\b/g, (iso) => {
        const t = Date.parse(iso) / 1000;
        return t >= lo && t <= hi ? '<time>' : iso;
      })
      .replace(/omanual-\d{8}T\d{9}Z\.zip/g, 'omanual-<time>.zip')
      .replace(/"authToken":"[^"]*"/g, '"authToken":"<token>"')
      // The demo pictures get random GUIDs at each load (their file URLs name them).
      .replace(/\/igi\/[A-Za-z][A-Za-z0-9]{15}/g, '/igi/<guid>')
      .replace(/"guid":"[A-Za-z][A-Za-z0-9]{15}"/g, '"guid":"<guid>"')
      // The tool's own reads are views, written every few seconds: how many a body shows depends on timing.
      .replace(/"views":[0-9]+/g, '"views":<views>');
}

function zipEntries(buffer) {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ name: entry.fileName, date: entry.getLastModDate().toISOString(), content: Buffer.concat(chunks).toString('utf8') });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** Thrown when the archive was built before the demo data was in: that run is started again. */
class EarlyArchive extends Error {}

async function main() {
  const { out, build } = args();
  if (build) execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'apps/api/tsconfig.app.json'], { cwd: ROOT, stdio: 'inherit' });
  for (let attempt = 1; ; attempt++) {
    try {
      return await record(out);
    } catch (error) {
      if (!(error instanceof EarlyArchive) || attempt === 3) throw error;
      process.stderr.write(`${error.message}: starting again\n`);
    }
  }
}

async function record(out) {
  const dataDir = mkdtempSync(join(tmpdir(), 'compare-gets-'));
  // As root, the embedded PostgreSQL runs as the 'postgres' user, which must be able to enter it.
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://repair.example', DEMO_DATA: 'true', LOG_LEVEL: 'info', ARCHIVE_CHECK_SECONDS: '1', EVENT_DELIVERY: 'true' };
  delete env['DATABASE_URL'];
  delete env['WEB_CONCURRENCY'];
  const started = Date.now();
  const api = spawn(process.execPath, ['--max-old-space-size=320', 'apps/api/dist/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs = [];
  let pending = '';
  api.stdout.on('data', (chunk) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  api.stderr.on('data', (chunk) => process.stderr.write(chunk));
  const exited = new Promise((resolve) => api.on('exit', resolve));
  const waitForLog = async (msg, ms = 120_000) => {
    for (const until = Date.now() + ms; Date.now() < until; await sleep(100)) {
      if (logs.some((l) => l.msg === msg)) return;
      if (api.exitCode !== null) throw new Error(`the API exited (${api.exitCode}) before "${msg}"`);
    }
    throw new Error(`no "${msg}" in the log`);
  };
  try {
    await waitForLog('API ready');
    await waitForLog('archive built');
    // The scheduler's first check comes a second after start: on a busy machine, before the demo
    // data is loaded, which builds an archive of the empty database first.
    if (logs.find((l) => l.msg === 'archive built').guides === 0) throw new EarlyArchive('the archive was built before the demo data was loaded');
    const login = async (email, password) => {
      const res = await fetch(`${origin}${API}/user/token`, { method: 'POST', headers: { 'X-App-Id': 'demo-app-id', 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
      if (res.status !== 201) throw new Error(`login of ${email}: ${res.status}`);
      return (await res.json()).authToken;
    };
    const tokens = {
      anonymous: null,
      alice: await login('alice@example.com', 'alice-demo-password'),
      bob: await login('bob@example.com', 'bob-demo-password'),
      admin: await login('admin@example.com', 'admin-demo-password'),
    };
    // The guides' events reach reputation asynchronously: wait until the users' standings are still.
    for (let last = '', same = 0; same < 4; await sleep(250)) {
      const now = await (await fetch(`${origin}${API}/users?limit=200`)).text();
      same = now === last ? same + 1 : 0;
      last = now;
    }
    const finished = Date.now() + 60_000;
    const normalise = normaliser(started, finished);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const urls = [];
    let index = 0;
    for (const [method, path, as = 'anonymous', options = {}] of REQUESTS) {
      const url = options.raw ? `${origin}${path}` : `${origin}${API}${path}`;
      urls.push([method, path]);
      const headers = tokens[as] ? { Authorization: `api ${tokens[as]}` } : {};
      const res = await fetch(url, { method, headers, redirect: 'manual' });
      const zipped = path.startsWith('/archives') && res.headers.get('content-type') === 'application/zip';
      let body = zipped ? (await res.arrayBuffer(), '<the ZIP file: its entries are in "zz archive entries.txt">') : await res.text();
      // The ZIP container's own bytes (size, hash) are not compared, only its entries.
      // Badges earned while the demo data loaded are listed most recent first: milliseconds apart, in
      // an order that varies between two loads. They are compared by badge id.
      if (/\/badges(\?|$)/.test(path) && res.status === 200 && path !== '/badges') {
        const items = JSON.parse(body);
        const earned = items.filter((i) => i.earned).sort((a, b) => a.badge.badgeid - b.badge.badgeid);
        body = JSON.stringify([...earned, ...items.filter((i) => !i.earned)]);
      }
      if (path.startsWith('/archives')) body = body.replace(/"size":\d+/g, '"size":<zip>').replace(/"etag":"(?:[^"\\]|\\.)*"/g, '"etag":<zip>');
      // A gzipped body's length depends on the times in it: the body is compared decoded.
      const kept = KEPT_HEADERS.filter((name) => !((zipped || res.headers.has('content-encoding')) && name === 'content-length')).flatMap((name) => (res.headers.has(name) ? [`${name}: ${res.headers.get(name)}`] : []));
      const name = `${String(++index).padStart(3, '0')} ${method} ${as} ${path}`.replace(/[^A-Za-z0-9 ._=,&-]/g, '_').slice(0, 120);
      writeFileSync(join(out, `${name}.txt`), normalise(`${method} ${path} as ${as}\n${res.status}\n${kept.join('\n')}\n\n${body}`));
    }
    // The archive: its listing, then its entries.
    const listing = await (await fetch(`${origin}${API}/archives`)).json();
    const latest = listing.find((a) => a.latest);
    if (!latest) throw new Error('no archive was built');
    const zip = Buffer.from(await (await fetch(`${origin}${API}/archives/omanual`)).arrayBuffer());
    const entries = await zipEntries(zip);
    writeFileSync(join(out, 'zz archive entries.txt'), normalise(entries.map((e) => `== ${e.name} (${e.date})\n${e.content}`).join('\n')));
    // Every GET route of the OpenAPI document is asked at least once.
    const document = JSON.parse(await (await fetch(`${origin}${API}/docs-json`)).text());
    const uncovered = Object.entries(document.paths)
      .filter(([, operations]) => operations.get)
      .map(([route]) => route)
      .filter((route) => {
        const pattern = new RegExp(`^${API}${route.replace(/^\/api\/2\.0/, '').replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`);
        return !urls.some(([method, path]) => method === 'GET' && pattern.test(`${API}${path}`));
      });
    if (uncovered.length) throw new Error(`GET routes not covered: ${uncovered.join(', ')}`);
    // Every path of the document (and of Swagger UI) asked with a method none of them has: 405 and
    // its Allow header tell which methods the path has.
    const allows = [];
    const paths = [...Object.keys(document.paths).map((route) => route.replace(/\{[^}]+\}/g, '1')), `${API}/docs`, `${API}/docs-json`, `${API}/docs-yaml`, `${API}/docs/`, `${API}/docs/swagger-ui-init.js`, `${API}/docs/swagger-ui.css`];
    for (const path of paths) {
      const res = await fetch(`${origin}${path.startsWith(API) ? '' : API}${path}`, { method: 'SEARCH' });
      allows.push(`${path} ${res.status} ${res.headers.get('allow')} ${await res.text()}`);
    }
    writeFileSync(join(out, 'zz allow.txt'), `${allows.join('\n')}\n`);
    process.stdout.write(`${index + 1} answers written to ${out}\n`);
  } finally {
    api.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
