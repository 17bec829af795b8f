import type pg from 'pg';
import { BENCH_APP_ID, BENCH_PASSWORD, LOGIN_USERS, loginEmail, WRITERS, writerEmail } from './generate.js';
import type { ConnectionDriver, RequestSpec } from './lib/load.js';
import { Random, Zipf } from './lib/random.js';
import { uploadedImage } from './media.js';
import { FAMILIES, MAKERS, PART_NOUNS } from './lib/words.js';

/**
 * `lookup`: the static body after one indexed query per request (what a cache checked against the
 * revision costs at least); `thread-floor`: the floor's one statement for a comment thread (the
 * floor's process, another route: not part of the floor's mean that every ratio divides by).
 */
export type Target = 'api' | 'floor' | 'static' | 'lookup' | 'thread-floor';

export interface BenchContext {
  readonly origins: Record<Target, string>;
  readonly db: pg.Pool;
  readonly seed: number;
  readonly connections: number;
  /** Public, live guide ids, ascending. */
  readonly live: readonly number[];
  /** The live ids in popularity order (a seeded permutation): Zipf rank k reads `popular[k]`. */
  readonly popular: readonly number[];
  readonly zipf: Zipf;
  readonly categories: readonly string[];
  /** Top-level comments on public guides and their steps (threads), in popularity order (a seeded permutation). */
  readonly threads: readonly number[];
  readonly threadZipf: Zipf;
  readonly etagSample: number;
  /** Where the photographs of the media figures are kept. */
  readonly mediaDir: string;
  readonly log: (line: string) => void;
}

export interface Scenario {
  readonly name: string;
  readonly target: Target;
  /** One line: what it measures. */
  readonly description: string;
  readonly expected: readonly number[];
  /** Before the warm-up (learn ETags, log in). */
  prepare?(ctx: BenchContext): Promise<void>;
  driver(ctx: BenchContext, connection: number): ConnectionDriver;
  /** After each load run (warm-up and measured): requests cut off by the end of a run are settled here. */
  afterRun?(ctx: BenchContext): Promise<void>;
  /** After the measured run: figures of correctness (lost updates, stale reads, …). */
  verify?(ctx: BenchContext): Promise<Record<string, number | string>>;
  /** Notes for the table (e.g. the API sends no ETag). */
  notes?: string[];
  /**
   * API processes the load is spread over (connection i sends to instance i mod n), on the same
   * database: 2 checks that what one instance acknowledges, the other shows. Default 1.
   */
  readonly instances?: 1 | 2;
}

const get = (path: string, headers?: Record<string, string>): RequestSpec => ({ method: 'GET', path: `/api/2.0${path}`, headers });

function rng(ctx: BenchContext, name: string, connection: number): Random {
  let hash = 0;
  for (const c of name) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) | 0;
  return new Random(ctx.seed ^ hash, connection + 1000);
}

/** The ETag of a response's headers as autocannon gives them (names as the server sent them). */
function etagOf(headers: Record<string, string | string[]>): string | undefined {
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'etag') return Array.isArray(value) ? value[0] : value;
  return undefined;
}

/**
 * A GET of `path(ctx, r)` per request, `r` the connection's seeded stream (named `stream`: a
 * scenario and its reference given the same name draw the same paths in the same order).
 */
function reads(name: string, target: Target, description: string, path: (ctx: BenchContext, r: Random) => string, stream = name): Scenario {
  return {
    name,
    target,
    description,
    expected: [200],
    driver(ctx, connection) {
      const r = rng(ctx, stream, connection);
      return { next: () => get(path(ctx, r)) };
    },
  };
}

/** GET /guides/{id}, ids drawn by `pick`. */
const guideReads = (name: string, target: Target, description: string, pick: (ctx: BenchContext, r: Random) => number): Scenario =>
  reads(name, target, description, (ctx, r) => `/guides/${pick(ctx, r)}`);

const zipfId = (ctx: BenchContext, r: Random): number => ctx.popular[ctx.zipf.rank(r)]!;

/** `guide-zipf` read by signed-in users, each connection with the token of its own account. */
function signedInReads(): Scenario {
  let tokens: string[] = [];
  return {
    name: 'guide-zipf-auth',
    target: 'api',
    description: 'GET /guides/{id} with a token (one account per connection), Zipf ids',
    expected: [200],
    async prepare(ctx) {
      tokens = await writerTokens(ctx);
    },
    driver(ctx, connection) {
      const r = rng(ctx, 'guide-zipf-auth', connection);
      const headers = { Authorization: `api ${tokens[connection]}` };
      return { next: () => get(`/guides/${zipfId(ctx, r)}`, headers) };
    },
  };
}
const uniformId = (ctx: BenchContext, r: Random): number => ctx.live[Math.floor(r.next() * ctx.live.length)]!;

/**
 * Conditional GETs: the ETags of a sample of guides are learnt first (the most popular ones for
 * Zipf, a uniform sample otherwise), then every request carries the ETag of its guide.
 */
function conditionalReads(name: string, zipf: boolean): Scenario {
  const etags = new Map<number, string>();
  let sample: number[] = [];
  let sampleZipf: Zipf | null = null;
  const scenario: Scenario = {
    name,
    target: 'api',
    description: `GET /guides/{id} with If-None-Match (${zipf ? 'Zipf ids among the most popular' : 'uniform ids over a sample'}): 304 expected`,
    expected: [200, 304],
    notes: [],
    async prepare(ctx) {
      const n = Math.min(ctx.etagSample, ctx.live.length);
      if (zipf) sample = ctx.popular.slice(0, n);
      else {
        const r = new Random(ctx.seed, 77);
        sample = r.shuffle([...ctx.live]).slice(0, n);
      }
      sampleZipf = zipf ? new Zipf(sample.length) : null;
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = next++; i < sample.length; i = next++) {
            // As autocannon asks (no Accept-Encoding: fetch would ask for gzip, another representation and ETag).
            const res = await fetch(`${ctx.origins.api}/api/2.0/guides/${sample[i]}`, { headers: { 'Accept-Encoding': 'identity' } });
            await res.arrayBuffer();
            const etag = res.headers.get('etag');
            if (etag) etags.set(sample[i]!, etag);
          }
        }),
      );
      if (!etags.size) scenario.notes!.push('the API sends no ETag: this measures plain 200s');
      ctx.log(`  ${name}: ${etags.size} ETags learnt for ${sample.length} guides`);
    },
    driver(ctx, connection) {
      const r = rng(ctx, name, connection);
      let asked = 0;
      return {
        next() {
          asked = sampleZipf ? sample[sampleZipf.rank(r)]! : sample[Math.floor(r.next() * sample.length)]!;
          const etag = etags.get(asked);
          return get(`/guides/${asked}`, etag ? { 'If-None-Match': etag } : undefined);
        },
        // A 200 is a newer representation: its ETag replaces the one kept, as a client's cache does.
        onResponse(status, _body, headers) {
          const etag = etagOf(headers);
          if (status === 200 && etag) etags.set(asked, etag);
        },
      };
    },
  };
  return scenario;
}

/**
 * Conditional GETs of other resources: the ETags of `paths` are learnt first, then each request
 * carries its path's ETag (304 expected), for the cost of a 304 against the same reads' 200s.
 */
function conditionalPaths(name: string, description: string, paths: (ctx: BenchContext) => string[]): Scenario {
  const etags = new Map<string, string>();
  let sample: string[] = [];
  const scenario: Scenario = {
    name,
    target: 'api',
    description,
    expected: [200, 304],
    notes: [],
    async prepare(ctx) {
      sample = paths(ctx);
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = next++; i < sample.length; i = next++) {
            const res = await fetch(`${ctx.origins.api}/api/2.0${sample[i]}`, { headers: { 'Accept-Encoding': 'identity' } });
            await res.arrayBuffer();
            const etag = res.headers.get('etag');
            if (etag) etags.set(sample[i]!, etag);
          }
        }),
      );
      if (etags.size < sample.length) scenario.notes!.push(`ETags for ${etags.size} of ${sample.length} paths`);
      ctx.log(`  ${name}: ${etags.size} ETags learnt for ${sample.length} paths`);
    },
    driver(ctx, connection) {
      const r = rng(ctx, name, connection);
      let asked = '';
      return {
        next() {
          asked = sample[Math.floor(r.next() * sample.length)]!;
          const etag = etags.get(asked);
          return get(asked, etag ? { 'If-None-Match': etag } : undefined);
        },
        // A 200 is a newer representation: its ETag replaces the one kept, as a client's cache does.
        onResponse(status, _body, headers) {
          const etag = etagOf(headers);
          if (status === 200 && etag) etags.set(asked, etag);
        },
      };
    },
  };
  return scenario;
}

/** GET of an image file (`/igi/<guid>.standard`): one photograph uploaded and made into every size first. */
function mediaSizeScenario(): Scenario {
  let path = '';
  return {
    name: 'media-size',
    target: 'api',
    description: 'GET /igi/{guid}.standard (an image file from the media store)',
    expected: [200],
    async prepare(ctx) {
      const image = await uploadedImage(ctx.origins.api, ctx.mediaDir, 2);
      path = new URL(String(image['standard'])).pathname;
    },
    driver: () => ({ next: () => ({ method: 'GET', path }) }),
  };
}

function listPage(fraction: number): Scenario {
  const name = `guides-offset-${Math.round(fraction * 100)}`;
  return {
    name,
    target: 'api',
    description: `GET /guides?limit=20 at offset ${Math.round(fraction * 100)}% of the public guides`,
    expected: [200],
    driver(ctx) {
      const offset = Math.max(0, Math.floor(ctx.live.length * fraction) - (fraction > 0 ? 20 : 0));
      return { next: () => get(`/guides?limit=20&offset=${offset}`) };
    },
  };
}

const wikiPath = (title: string): string => `/wikis/CATEGORY/${encodeURIComponent(title.replace(/ /g, '_'))}`;

/** Tokens of the writer accounts (Admins), one per connection, logged in through the API. */
/** The writers' tokens by API origin: logged in once per run (the tokens hold on every API process of the database). */
const writerTokensOf = new Map<string, Promise<string[]>>();

/**
 * Logs the writers in once, before any scenario: the login scenario's thousands of logins from
 * this address reach the API's login rate limit, which would refuse the writers' logins after it.
 */
export function writerTokens(ctx: BenchContext): Promise<string[]> {
  let tokens = writerTokensOf.get(ctx.origins.api);
  if (!tokens) {
    tokens = logInWriters(ctx);
    writerTokensOf.set(ctx.origins.api, tokens);
  }
  return tokens;
}

async function logInWriters(ctx: BenchContext): Promise<string[]> {
  if (ctx.connections > WRITERS) throw new Error(`the write scenarios need at most ${WRITERS} connections`);
  return Promise.all(
    Array.from({ length: ctx.connections }, async (_, k) => {
      const res = await fetch(`${ctx.origins.api}/api/2.0/user/token`, {
        method: 'POST',
        headers: { 'X-App-Id': BENCH_APP_ID, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: writerEmail(k), password: BENCH_PASSWORD }),
      });
      const body = (await res.json()) as { authToken?: string; message?: string };
      if (res.status !== 201 || !body.authToken) throw new Error(`login of ${writerEmail(k)} failed: ${res.status} ${body.message ?? ''}`);
      return body.authToken;
    }),
  );
}

interface Ack {
  readonly revisionid: number;
  readonly summary: string;
}

/**
 * The guides written to: each connection owns `perConnection` of them (so revision checks
 * succeed), knows their current revision, and records every acknowledged write.
 */
class WritePool {
  guides: number[] = [];
  tokens: string[] = [];
  readonly revision = new Map<number, number>();
  readonly acks = new Map<number, Ack[]>();
  /** The latest acknowledged revision of each guide, as every client has seen it answered. */
  readonly acked = new Map<number, number>();
  conflicts = 0;
  writes = 0;
  /** Writes sent per connection, across warm-up and measure (every summary is new). */
  private readonly sent = new Map<number, number>();
  private readonly run = Date.now().toString(36);
  /** The write each connection awaits the answer of. */
  private readonly inFlight = new Map<number, { id: number; summary: string }>();
  /** Writes cut off by the end of a run: applied or not, never acknowledged. */
  private readonly unanswered = new Map<number, Set<string>>();

  async prepare(ctx: BenchContext, perConnection: number): Promise<void> {
    if (!this.tokens.length) this.tokens = await writerTokens(ctx);
    const { rows } = await ctx.db.query<{ id: number; revisionid: number }>(
      `SELECT id, revisionid FROM guides WHERE is_public AND deleted_at IS NULL AND cardinality(prerequisites) = 0
        AND NOT EXISTS (SELECT 1 FROM guides d WHERE d.prerequisites @> ARRAY[guides.id])
        ORDER BY id DESC LIMIT $1`,
      [ctx.connections * perConnection],
    );
    this.guides = rows.map((r) => r.id);
    for (const row of rows) this.revision.set(row.id, row.revisionid);
  }

  owned(ctx: BenchContext, connection: number): number[] {
    return this.guides.filter((_, i) => i % ctx.connections === connection);
  }

  patch(connection: number, id: number): { spec: RequestSpec; summary: string } {
    const n = (this.sent.get(connection) ?? 0) + 1;
    this.sent.set(connection, n);
    const summary = `Bench edit ${this.run}.${connection}.${n} of guide ${id}.`;
    this.inFlight.set(connection, { id, summary });
    return {
      summary,
      spec: {
        method: 'PATCH',
        path: `/api/2.0/guides/${id}?revisionid=${this.revision.get(id)}`,
        headers: { Authorization: `api ${this.tokens[connection]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ summary }),
      },
    };
  }

  answered(connection: number, status: number, body: string): void {
    const sent = this.inFlight.get(connection);
    if (!sent) return;
    this.inFlight.delete(connection);
    const { id, summary } = sent;
    if (status !== 200 && status !== 409) return;
    let revisionid: number | undefined;
    try {
      revisionid = (JSON.parse(body) as { revisionid?: number }).revisionid;
    } catch {
      return;
    }
    if (typeof revisionid !== 'number') return;
    this.revision.set(id, revisionid);
    if (status === 409) {
      this.conflicts++;
      return;
    }
    this.writes++;
    const list = this.acks.get(id) ?? [];
    list.push({ revisionid, summary });
    this.acks.set(id, list);
    if (revisionid > (this.acked.get(id) ?? 0)) this.acked.set(id, revisionid);
  }

  /**
   * When a run ends, autocannon drops the requests in flight: those writes may still commit. Once
   * they settle, the current revisions are read again so the next run starts without a conflict.
   */
  async settle(ctx: BenchContext): Promise<void> {
    for (const { id, summary } of this.inFlight.values()) this.unanswered.set(id, (this.unanswered.get(id) ?? new Set()).add(summary));
    this.inFlight.clear();
    // A cut-off write may still wait in an API process (not yet in the database): the revisions
    // are read until two reads half a second apart agree (at most 30 s).
    const read = async () => (await ctx.db.query<{ id: number; revisionid: number }>('SELECT id, revisionid FROM guides WHERE id = ANY($1) ORDER BY id', [this.guides])).rows;
    let rows = await read();
    for (const until = Date.now() + 30_000; Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 500));
      const again = await read();
      const same = again.length === rows.length && again.every((row, i) => row.revisionid === rows[i]!.revisionid);
      rows = again;
      if (same) break;
    }
    for (const row of rows) this.revision.set(row.id, row.revisionid);
  }

  /**
   * Lost updates: an acknowledged write whose revision is not stored with its summary, or a guide
   * whose final state (read through the API and in the table) is not its last acknowledged write.
   */
  async verify(ctx: BenchContext): Promise<Record<string, number>> {
    const ids = [...this.acks.keys()];
    const { rows } = await ctx.db.query<{ guide_id: number; revisionid: number; summary: string }>(
      `SELECT guide_id, revisionid, snapshot->'state'->>'summary' AS summary FROM guide_revisions WHERE guide_id = ANY($1)`,
      [ids],
    );
    const stored = new Map(rows.map((r) => [`${r.guide_id}:${r.revisionid}`, r.summary]));
    const { rows: current } = await ctx.db.query<{ id: number; revisionid: number; summary: string }>(`SELECT id, revisionid, summary FROM guides WHERE id = ANY($1)`, [ids]);
    const table = new Map(current.map((r) => [r.id, r]));
    let lost = 0;
    let acknowledged = 0;
    let staleFinal = 0;
    for (const [id, acks] of this.acks) {
      acknowledged += acks.length;
      for (const ack of acks) if (stored.get(`${id}:${ack.revisionid}`) !== ack.summary) lost++;
      const last = acks.reduce((a, b) => (b.revisionid > a.revisionid ? b : a));
      const row = table.get(id);
      const res = await fetch(`${ctx.origins.api}/api/2.0/guides/${id}`);
      const api = (await res.json()) as { revisionid?: number; summary?: string };
      // The final state is the last acknowledged write, or a later one cut off by the end of a run.
      const cutOff = this.unanswered.get(id) ?? new Set<string>();
      const finalOk = (revisionid: number | undefined, summary: string | undefined) =>
        (revisionid === last.revisionid && summary === last.summary) || (revisionid !== undefined && revisionid > last.revisionid && summary !== undefined && cutOff.has(summary));
      if (!row || !finalOk(row.revisionid, row.summary) || !finalOk(api.revisionid, api.summary)) staleFinal++;
    }
    return { acknowledged, lostUpdates: lost + staleFinal, conflicts: this.conflicts };
  }
}

function patchScenario(): Scenario {
  const pool = new WritePool();
  return {
    name: 'patch',
    target: 'api',
    description: 'PATCH /guides/{id}?revisionid=current (each connection edits its own 8 guides): writes/s, lost updates',
    expected: [200],
    prepare: (ctx) => pool.prepare(ctx, 8),
    driver(ctx, connection) {
      const own = pool.owned(ctx, connection);
      let n = 0;
      return {
        next: () => pool.patch(connection, own[n++ % own.length]!).spec,
        onResponse: (status, body) => pool.answered(connection, status, body),
      };
    },
    afterRun: (ctx) => pool.settle(ctx),
    verify: (ctx) => pool.verify(ctx),
  };
}

/**
 * 90% reads, 10% writes. Half the reads go to the guides being written (uniformly), half follow
 * Zipf over all guides; a read of a written guide must show at least the revision that the last
 * write acknowledged before the read was sent (by any connection). With two instances, connections
 * alternate between two API processes, so most reads of a written guide follow a write acknowledged
 * by the other process.
 */
function mixedScenario(instances: 1 | 2): Scenario {
  const pool = new WritePool();
  let reads = 0;
  let checked = 0;
  let stale = 0;
  return {
    name: instances === 1 ? 'mixed' : 'mixed-two',
    target: 'api',
    description:
      instances === 1
        ? '90% GET /guides/{id} (half on guides being written), 10% PATCH: every read must show the latest acknowledged revision'
        : 'mixed, its connections alternating between two API processes on the same database: a read must show what the other process acknowledged',
    instances,
    expected: [200],
    prepare: (ctx) => pool.prepare(ctx, 8),
    driver(ctx, connection) {
      const r = rng(ctx, 'mixed', connection);
      const own = pool.owned(ctx, connection);
      let n = 0;
      let pending = { write: false, minRevision: 0 };
      return {
        next() {
          if (r.chance(0.1)) {
            pending = { write: true, minRevision: 0 };
            return pool.patch(connection, own[n++ % own.length]!).spec;
          }
          const id = r.chance(0.5) ? pool.guides[Math.floor(r.next() * pool.guides.length)]! : zipfId(ctx, r);
          pending = { write: false, minRevision: pool.acked.get(id) ?? 0 };
          return get(`/guides/${id}`);
        },
        onResponse(status, body) {
          if (pending.write) return pool.answered(connection, status, body);
          reads++;
          if (!pending.minRevision || status !== 200) return;
          checked++;
          const revisionid = (JSON.parse(body) as { revisionid?: number }).revisionid ?? 0;
          if (revisionid < pending.minRevision) stale++;
        },
      };
    },
    afterRun: (ctx) => pool.settle(ctx),
    async verify(ctx) {
      return { ...(await pool.verify(ctx)), reads, readsChecked: checked, staleReads: stale };
    },
  };
}

/** The accounts one of `connections` connections logs in as: none shared while there are more accounts than connections. */
export function accountsOf(connection: number, connections: number, accounts: number): number[] {
  const own: number[] = [];
  for (let k = connection % accounts; k < accounts; k += connections) own.push(k);
  return own;
}

/** What people search for: a part, a kind of device and a part ("kettle heater"), or a device name. */
function searchQuery(ctx: BenchContext, r: Random): string {
  const u = r.next();
  if (u < 0.5) return r.pick(PART_NOUNS);
  if (u < 0.75) return `${r.pick(FAMILIES).toLowerCase()} ${r.pick(PART_NOUNS)}`;
  return r.pick(ctx.categories);
}

/** GET /comments/{id} of a top-level comment (the thread: it and its replies, each with its author), Zipf over the threads; the API and its reference read the same threads. */
const threadReads = (name: string, target: Target, description: string): Scenario =>
  reads(name, target, description, (ctx, r) => `/comments/${ctx.threads[ctx.threadZipf.rank(r)]}`, 'comment-thread');

/** Every scenario, in the order run (the references are measured again at the end). */
export function scenarios(): Scenario[] {
  return [
    guideReads('static', 'static', 'static limit: one precomputed guide body from memory (node:http)', uniformId),
    guideReads('floor', 'floor', 'floor: one SQL statement builds the guide JSON in PostgreSQL (node:http + pg, uniform ids)', uniformId),
    guideReads('static-lookup', 'lookup', 'the static body after one indexed revision query per request: the ceiling of a cache checked per request', zipfId),
    guideReads('guide-zipf', 'api', 'GET /guides/{id}, Zipf ids (s = 1)', zipfId),
    guideReads('guide-uniform', 'api', 'GET /guides/{id}, uniform ids over every public guide', uniformId),
    signedInReads(),
    conditionalReads('guide-zipf-inm', true),
    conditionalReads('guide-uniform-inm', false),
    listPage(0),
    listPage(0.5),
    listPage(0.9),
    conditionalPaths('guides-list-inm', 'GET /guides?limit=20 with If-None-Match, over the first 50 pages: 304 expected', () =>
      Array.from({ length: 50 }, (_, page) => `/guides?limit=20&offset=${page * 20}`),
    ),
    {
      name: 'categories',
      target: 'api',
      description: 'GET /categories (the whole tree)',
      expected: [200],
      driver: () => ({ next: () => get('/categories') }),
    },
    {
      name: 'wiki-category',
      target: 'api',
      description: 'GET /wikis/CATEGORY/{title}, uniform over the tree',
      expected: [200],
      driver(ctx, connection) {
        const r = rng(ctx, 'wiki-category', connection);
        return { next: () => get(wikiPath(r.pick(ctx.categories))) };
      },
    },
    conditionalPaths('wiki-category-inm', 'GET /wikis/CATEGORY/{title} with If-None-Match, over 200 pages of the tree: 304 expected', (ctx) =>
      new Random(ctx.seed, 31).shuffle([...ctx.categories]).slice(0, 200).map(wikiPath),
    ),
    {
      name: 'search',
      target: 'api',
      description: 'GET /search/{query}: a part (half), a kind of device and a part, or a device name',
      expected: [200],
      driver(ctx, connection) {
        const r = rng(ctx, 'search', connection);
        return { next: () => get(`/search/${encodeURIComponent(searchQuery(ctx, r))}`) };
      },
    },
    {
      name: 'suggest',
      target: 'api',
      description: 'GET /suggest/{prefix of 3 to 6 letters of a part or a maker}',
      expected: [200],
      driver(ctx, connection) {
        const r = rng(ctx, 'suggest', connection);
        return {
          next() {
            const word = r.chance(0.5) ? r.pick(PART_NOUNS) : r.pick(MAKERS).toLowerCase();
            return get(`/suggest/${encodeURIComponent(word.slice(0, Math.min(word.length, r.int(3, 6))))}`);
          },
        };
      },
    },
    threadReads('comment-thread-floor', 'thread-floor', "comment thread's reference: one SQL statement builds the thread's JSON in PostgreSQL (the floor's process)"),
    threadReads('comment-thread', 'api', 'GET /comments/{id} of a top-level comment: the comment and its replies with their authors, Zipf over the threads'),
    {
      name: 'login',
      target: 'api',
      description: `POST /user/token (argon2id verify) over ${LOGIN_USERS} accounts, each logged in by one connection`,
      expected: [201],
      driver(ctx, connection) {
        // Accounts connection, connection + N, connection + 2N… (N connections): never two connections on
        // one account. A login's attempt counts until it succeeds, and the API refuses an account's
        // sixth attempt in flight from one address (429), as it would a sixth failure.
        const own = accountsOf(connection, ctx.connections, LOGIN_USERS);
        let n = 0;
        return {
          next: () => ({
            method: 'POST',
            path: '/api/2.0/user/token',
            headers: { 'X-App-Id': BENCH_APP_ID, 'Content-Type': 'application/json' },
            body: JSON.stringify({ email: loginEmail(own[n++ % own.length]!), password: BENCH_PASSWORD }),
          }),
        };
      },
    },
    patchScenario(),
    mixedScenario(1),
    mixedScenario(2),
    mediaSizeScenario(),
    guideReads('floor-again', 'floor', 'the floor again, at the end of the run', uniformId),
    guideReads('static-again', 'static', 'the static limit again, at the end of the run', uniformId),
  ];
}
