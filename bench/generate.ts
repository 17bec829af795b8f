import pg from 'pg';
import { GUIDE_SEARCH_HEADS_FILL_SQL, GUIDE_STATS_FILL_SQL } from '@rc/guides-infra-mikro-orm';
import { Argon2PasswordHasher } from '@rc/identity-infra-mikro-orm';
import { IMAGE_SIZES } from '@rc/media-domain';
import { copyText, intArrayLiteral, json, NULL, textArrayLiteral, timestamp } from './lib/copy.js';
import { Random } from './lib/random.js';
import { readSchema, secondaryIndexes, TableLoader, type Schema } from './lib/schema.js';
import { ADJECTIVES, FAMILIES, FILLER, GENERIC_NOUNS, MAKERS, NAME_WORDS, NOUNS, PART_NOUNS, TAGS, TOOLS, VERBS } from './lib/words.js';

/** Bumped whenever the generated data changes shape: `--reuse` then regenerates. */
export const GENERATOR_VERSION = 6;

/** The password of every generated account (public: these are benchmark accounts). */
export const BENCH_PASSWORD = 'bench-password-1234';
export const BENCH_APP_ID = 'bench-app-id';
/** Accounts 1..WRITERS are Admins that the write scenarios log in as (one per connection). */
export const WRITERS = 256;
/** Accounts after the writers that the login scenario uses. */
export const LOGIN_USERS = 64;
export const writerEmail = (k: number): string => `writer${k}@bench.example`;
export const loginEmail = (k: number): string => `login${k}@bench.example`;

export interface GenerateOptions {
  readonly scale: number;
  readonly seed: number;
  readonly log: (line: string) => void;
}

export interface Counts {
  readonly guides: number;
  readonly categories: number;
  readonly users: number;
  readonly teams: number;
  /** Photographs in the media library (guides, steps and pages show images drawn from them). */
  readonly images: number;
}

export function countsFor(scale: number): Counts {
  return {
    guides: Math.max(50, Math.round(100_000 * scale)),
    categories: Math.max(30, Math.round(10_000 * scale)),
    users: Math.max(WRITERS + LOGIN_USERS + 100, Math.round(50_000 * scale)),
    teams: Math.max(5, Math.round(2_000 * scale)),
    images: Math.max(1_000, Math.round(200_000 * scale)),
  };
}

const EPOCH = Date.UTC(2016, 0, 1);
const NOW = Date.UTC(2026, 10, 1);
const GUIDE_TYPES = ['replacement', 'replacement', 'replacement', 'repair', 'disassembly', 'teardown', 'installation', 'maintenance', 'technique', 'how-to'];
const DIFFICULTIES = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'];
const BULLETS = ['black', 'red', 'orange', 'yellow', 'light_blue', 'blue', 'green', 'violet', 'icon_note', 'icon_caution', 'icon_reminder'];
const BULLET_WEIGHTS = [60, 6, 5, 4, 3, 3, 3, 2, 6, 5, 3];

/** The share of public guides with comments on them or on their steps. */
const DISCUSSED_SHARE = 0.05;

const cap = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Plain sentences of repair instructions (no markup: the rendered text is the escaped raw text).
 * Nouns are generic ones (in nearly every guide) or the few parts the text is about, so a part
 * name is found in a few percent of the guides, as in real repair texts.
 */
class Prose {
  constructor(private readonly r: Random) {}

  private noun(parts: readonly string[]): string {
    return this.r.chance(0.4) ? this.r.pick(GENERIC_NOUNS) : this.r.pick(parts);
  }

  sentence(minWords: number, maxWords: number, parts: readonly string[] = PART_NOUNS): string {
    const r = this.r;
    const target = r.int(minWords, maxWords);
    const words: string[] = [r.pick(VERBS), 'the'];
    if (r.chance(0.5)) words.push(r.pick(ADJECTIVES));
    words.push(this.noun(parts));
    while (words.length < target) {
      words.push(r.pick(FILLER));
      if (r.chance(0.35)) words.push(r.pick(ADJECTIVES));
      words.push(r.chance(0.8) ? this.noun(parts) : r.pick(VERBS));
    }
    return `${cap(words.join(' '))}.`;
  }

  paragraph(sentences: number, parts: readonly string[] = PART_NOUNS): string {
    return Array.from({ length: sentences }, () => this.sentence(6, 16, parts)).join(' ');
  }
}

interface Category {
  readonly id: number;
  readonly title: string;
  readonly parentId: number | null;
  leaf: boolean;
}

/** A tree four levels deep: families, makers, series, models; guides belong to the leaves. */
function buildCategories(count: number, r: Random): Category[] {
  const level0 = Math.max(3, Math.round(count * 0.003));
  const level1 = Math.max(6, Math.round(count * 0.03));
  const level2 = Math.max(10, Math.round(count * 0.17));
  const titles = new Set<string>();
  const unique = (base: string): string => {
    let title = base;
    for (let n = 2; titles.has(title); n++) title = `${base} ${n}`;
    titles.add(title);
    return title;
  };
  const all: Category[] = [];
  const levels: Category[][] = [[], [], [], []];
  for (let i = 0; i < count; i++) {
    const level = i < level0 ? 0 : i < level0 + level1 ? 1 : i < level0 + level1 + level2 ? 2 : 3;
    const parent = level === 0 ? null : r.pick(levels[level - 1]!);
    let title: string;
    if (level === 0) title = unique(FAMILIES[i % FAMILIES.length]!);
    else if (level === 1) title = unique(`${r.pick(MAKERS)} ${parent!.title}`);
    else if (level === 2) title = unique(`${parent!.title} ${r.pick(NAME_WORDS)}`);
    else title = unique(`${parent!.title} ${r.int(2, 99)}${r.chance(0.3) ? ` ${r.pick(['Pro', 'Mini', 'Max', 'Plus', 'Lite'])}` : ''}`);
    const category: Category = { id: i + 1, title, parentId: parent?.id ?? null, leaf: true };
    if (parent) parent.leaf = false;
    levels[level]!.push(category);
    all.push(category);
  }
  return all;
}

type Visibility = 0 | 1 | 2; // public, private, deleted

interface Plan {
  readonly counts: Counts;
  readonly categories: Category[];
  readonly leaves: Category[];
  /** Per guide id: 0 public, 1 private, 2 deleted. */
  readonly visibility: Uint8Array;
  /** Guides 1..prereqs are the prerequisites others may use (always public). */
  readonly prereqs: number;
  /** Public guide ids, most popular first (favourites and completions follow this order). */
  readonly popular: number[];
  /** Per guide id: 1 when the guide has comments (a few percent of the public guides). */
  readonly discussed: Uint8Array;
}

function plan(scale: number, seed: number): Plan {
  const counts = countsFor(scale);
  const categories = buildCategories(counts.categories, new Random(seed, 1));
  const r = new Random(seed, 2);
  const prereqs = Math.max(1, Math.floor(counts.guides / 100));
  const visibility = new Uint8Array(counts.guides + 1);
  for (let id = prereqs + 1; id <= counts.guides; id++) {
    const u = r.next();
    visibility[id] = u < 0.01 ? 1 : u < 0.013 ? 2 : 0;
  }
  const popular: number[] = [];
  for (let id = 1; id <= counts.guides; id++) if (visibility[id] === 0) popular.push(id);
  r.shuffle(popular);
  // Drawn on a stream of their own, so that adding comments left every other table as it was.
  const talk = new Random(seed, 8);
  const discussed = new Uint8Array(counts.guides + 1);
  for (let id = 1; id <= counts.guides; id++) if (visibility[id] === 0 && talk.chance(DISCUSSED_SHARE)) discussed[id] = 1;
  return { counts, categories, leaves: categories.filter((c) => c.leaf), visibility, prereqs, popular, discussed };
}

interface Tables {
  readonly schema: Schema;
  readonly warn: (message: string) => void;
}

/** Fills a database that has the app's schema (migrations applied, no rows) with a seeded data set. */
export async function generate(url: string, options: GenerateOptions): Promise<Counts & { seconds: number; rows: Record<string, number> }> {
  const started = Date.now();
  const { log } = options;
  const p = plan(options.scale, options.seed);
  const control = new pg.Client({ connectionString: url });
  await control.connect();
  const clients: pg.Client[] = [];
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`SET synchronous_commit = off`);
    clients.push(client);
    return client;
  };
  const rows: Record<string, number> = {};
  const warnings = new Set<string>();
  const tables: Tables = {
    schema: await readSchema(control),
    warn: (message) => {
      if (!warnings.has(message)) log(`  warning: ${message}`);
      warnings.add(message);
    },
  };
  try {
    // Without foreign key and secondary index maintenance the load is several times faster; the
    // generator keeps the references valid and the indexes are rebuilt from their definitions.
    const loaded = ['users', 'app_ids', 'wiki_pages', 'wiki_revisions', 'wiki_tags', 'guides', 'guide_steps', 'guide_revisions', 'guide_marks', 'guide_tags', 'guide_search_heads'];
    const indexes = await secondaryIndexes(control, loaded);
    for (const index of indexes) await control.query(`DROP INDEX "${index.name}"`);
    const a = await connect();
    const b = await connect();
    const c = await connect();
    const replica = await trySessionReplicationRole([a, b, c]);
    if (!replica) log('  (not a superuser: foreign keys are checked during the load, which is slower)');

    let t = Date.now();
    const hash = await new Argon2PasswordHasher().hash(BENCH_PASSWORD);
    rows['users'] = await loadUsers(a, tables, p, options.seed, hash);
    await a.query(`INSERT INTO app_ids (app_id, name, created_at) VALUES ($1, 'benchmark', now()) ON CONFLICT DO NOTHING`, [BENCH_APP_ID]);
    log(`  users: ${rows['users']} in ${secs(t)}`);

    t = Date.now();
    Object.assign(rows, await loadCategories(a, tables, p, options.seed));
    log(`  categories: ${rows['wiki_pages']} pages in ${secs(t)}`);

    t = Date.now();
    Object.assign(rows, await loadGuides(replica ? [a, b, c] : null, connect, tables, p, options.seed));
    log(`  guides: ${rows['guides']} guides, ${rows['guide_steps']} steps in ${secs(t)}`);
    // What the guides' triggers write (off during the load): the listed guides' search heads.
    await a.query(GUIDE_SEARCH_HEADS_FILL_SQL);

    t = Date.now();
    Object.assign(rows, await loadMarks(a, tables, p, options.seed));
    // What the guides' and marks' triggers write (off during the load): every guide's row of
    // counts, with its favourites and completions. Without it a guide's first view made its row,
    // which changed its version and so its body (see GuideStats).
    await a.query(GUIDE_STATS_FILL_SQL);
    log(`  favourites and completions: ${rows['guide_marks']}, tags: ${rows['guide_tags']} in ${secs(t)}`);

    t = Date.now();
    Object.assign(rows, await loadImages(control, tables, p));
    log(`  media library: ${rows['media_images'] ?? 0} images, ${rows['media_image_sizes'] ?? 0} sizes in ${secs(t)}`);

    t = Date.now();
    const teams = await loadTeams(control, tables, p, options.seed, log);
    if (teams) Object.assign(rows, teams);

    t = Date.now();
    Object.assign(rows, await loadComments(control, tables, p, options.seed));
    log(`  comments: ${rows['comments'] ?? 0} on ${p.discussed.reduce((n, d) => n + d, 0)} guides and their steps in ${secs(t)}`);

    t = Date.now();
    // Two connections build the indexes in parallel (the GIN search indexes are the slow ones).
    const queue = [...indexes].sort((x, y) => Number(y.definition.includes('gin')) - Number(x.definition.includes('gin')));
    await Promise.all(
      [b, c].map(async (client) => {
        await client.query(`SET maintenance_work_mem = '256MB'`);
        for (let index = queue.shift(); index; index = queue.shift()) await client.query(index.definition);
      }),
    );
    log(`  ${indexes.length} indexes rebuilt in ${secs(t)}`);

    t = Date.now();
    await setSequences(control);
    await Promise.all([
      b.query('VACUUM (ANALYZE) guides, guide_marks, guide_tags, users'),
      c.query('VACUUM (ANALYZE) guide_steps, guide_revisions, wiki_pages, wiki_revisions, guide_search_heads'),
      control.query('VACUUM (ANALYZE) media_images, media_image_sizes').catch(() => undefined),
      control.query('VACUUM (ANALYZE) comments').catch(() => undefined),
    ]);
    log(`  sequences set, vacuumed and analysed in ${secs(t)}`);
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await control.end();
  }
  return { ...p.counts, teams: rows['teams'] ?? 0, seconds: (Date.now() - started) / 1000, rows };
}

const secs = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function trySessionReplicationRole(clients: pg.Client[]): Promise<boolean> {
  try {
    for (const client of clients) await client.query(`SET session_replication_role = replica`);
    return true;
  } catch {
    return false;
  }
}

async function loadUsers(client: pg.Client, tables: Tables, p: Plan, seed: number, hash: string): Promise<number> {
  const r = new Random(seed, 3);
  const users = new TableLoader(client, tables.schema, 'users', ['id', 'email', 'username', 'unique_username', 'password_hash', 'role', 'status', 'joined_at', 'about', 'summary', 'location', 'langid', 'image_id'], tables.warn);
  for (let id = 1; id <= p.counts.users; id++) {
    const writer = id <= WRITERS;
    const login = !writer && id <= WRITERS + LOGIN_USERS;
    const email = writer ? writerEmail(id - 1) : login ? loginEmail(id - WRITERS - 1) : `user${id}@bench.example`;
    const username = writer ? `Bench Writer ${id - 1}` : `${r.pick(NAME_WORDS)} ${r.pick(NAME_WORDS)}`;
    const joined = new Date(EPOCH + Math.floor(r.next() * (NOW - EPOCH)));
    await users.row([
      String(id),
      email,
      username,
      `u${id}`,
      copyText(hash),
      writer ? 'Admin' : 'User',
      'active',
      timestamp(joined),
      r.chance(0.2) ? copyText(`Fixing ${r.pick(NOUNS)}s since ${joined.getUTCFullYear()}.`) : '',
      NULL,
      NULL,
      'en',
      NULL,
    ]);
  }
  return users.end();
}

/** Category pages, then the snapshot of each one's revision (after: they refer to the pages). */
async function loadCategories(client: pg.Client, tables: Tables, p: Plan, seed: number): Promise<Record<string, number>> {
  const r = new Random(seed, 4);
  const prose = new Prose(r);
  const snapshots: string[][] = [];
  const pages = new TableLoader(client, tables.schema, 'wiki_pages', ['id', 'namespace', 'title', 'display_title', 'parent_id', 'description', 'contents', 'image_id', 'flags', 'info', 'revisionid', 'author_id', 'langid', 'created_at', 'modified_at', 'deleted_at', '?related'], tables.warn);
  for (const category of p.categories) {
    const created = new Date(EPOCH + Math.floor(r.next() * (NOW - EPOCH) * 0.5));
    const modified = new Date(created.getTime() + Math.floor(r.next() * (NOW - created.getTime())));
    const parts = [r.pick(PART_NOUNS), r.pick(PART_NOUNS)];
    const description = prose.sentence(8, 20, parts);
    const contents = `== Background ==\n${prose.paragraph(r.int(2, 5), parts)}\n\n== Identification ==\n${prose.paragraph(r.int(1, 3), parts)}`;
    const imageId = r.chance(0.5) ? r.int(1, p.counts.images) : null;
    const info = category.leaf && r.chance(0.5) ? [{ name: 'Released', value: String(r.int(2005, 2026)) }] : [];
    const authorId = r.int(1, p.counts.users);
    const state = {
      id: category.id,
      namespace: 'CATEGORY',
      title: category.title,
      displayTitle: category.title,
      parentId: category.parentId,
      description,
      contents,
      imageId,
      flags: [],
      info,
      related: [],
      revisionid: category.id,
      authorId,
      langid: 'en',
      createdAt: created,
      modifiedAt: modified,
      deletedAt: null,
    };
    await pages.row([
      String(category.id),
      'CATEGORY',
      copyText(category.title),
      copyText(category.title),
      category.parentId === null ? NULL : String(category.parentId),
      copyText(description),
      copyText(contents),
      imageId === null ? NULL : String(imageId),
      '{}',
      json(info),
      String(category.id),
      String(authorId),
      'en',
      timestamp(created),
      timestamp(modified),
      NULL,
      '[]',
    ]);
    snapshots.push([String(category.id), String(category.id), json(state), String(authorId), timestamp(modified)]);
  }
  const pageRows = await pages.end();
  const revisions = new TableLoader(client, tables.schema, 'wiki_revisions', ['wiki_id', 'revisionid', 'snapshot', 'editor_id', 'created_at'], tables.warn);
  for (const row of snapshots) await revisions.row(row);
  return { wiki_pages: pageRows, wiki_revisions: await revisions.end() };
}

interface GuideSinks {
  guide(row: string[]): Promise<void>;
  steps(rows: string[][]): Promise<void>;
  revision(row: string[]): Promise<void>;
}

/**
 * Guides with their steps and the snapshot of their current revision, as the repository stores
 * them. With foreign keys off, one pass feeds the three tables at once; otherwise guides are
 * loaded first and the (identical, seeded) pass is made again for the tables that refer to them.
 */
async function loadGuides(parallel: pg.Client[] | null, connect: () => Promise<pg.Client>, tables: Tables, p: Plan, seed: number): Promise<Record<string, number>> {
  const guideColumns = ['id', 'revisionid', 'author_id', 'contributor_ids', 'title', 'category', 'subject', 'type', 'difficulty', 'summary', 'introduction', 'conclusion', 'time_required_min', 'time_required_max', 'image_id', 'parts', 'tools', 'prerequisites', 'flags', 'is_public', 'locale', 'created_at', 'modified_at', 'published_at', 'deleted_at', 'steps_text', '?discussion_seq'];
  const stepColumns = ['id', 'guide_id', 'orderby', 'revisionid', 'title', 'lines', 'media'];
  const revisionColumns = ['guide_id', 'revisionid', 'snapshot', 'editor_id', 'created_at'];
  if (parallel) {
    const [a, b, c] = parallel;
    const guides = new TableLoader(a!, tables.schema, 'guides', guideColumns, tables.warn);
    const steps = new TableLoader(b!, tables.schema, 'guide_steps', stepColumns, tables.warn);
    const revisions = new TableLoader(c!, tables.schema, 'guide_revisions', revisionColumns, tables.warn);
    await eachGuide(p, seed, {
      guide: (row) => guides.row(row),
      steps: async (rows) => {
        for (const row of rows) await steps.row(row);
      },
      revision: (row) => revisions.row(row),
    });
    return { guides: await guides.end(), guide_steps: await steps.end(), guide_revisions: await revisions.end() };
  }
  const guides = new TableLoader(await connect(), tables.schema, 'guides', guideColumns, tables.warn);
  await eachGuide(p, seed, { guide: (row) => guides.row(row), steps: async () => undefined, revision: async () => undefined });
  const guideRows = await guides.end();
  const steps = new TableLoader(await connect(), tables.schema, 'guide_steps', stepColumns, tables.warn);
  const revisions = new TableLoader(await connect(), tables.schema, 'guide_revisions', revisionColumns, tables.warn);
  await eachGuide(p, seed, {
    guide: async () => undefined,
    steps: async (rows) => {
      for (const row of rows) await steps.row(row);
    },
    revision: (row) => revisions.row(row),
  });
  return { guides: guideRows, guide_steps: await steps.end(), guide_revisions: await revisions.end() };
}

async function eachGuide(p: Plan, seed: number, sink: GuideSinks): Promise<void> {
  const r = new Random(seed, 5);
  const prose = new Prose(r);
  let stepId = 0;
  let revision = 0;
  let lineId = 0;
  for (let id = 1; id <= p.counts.guides; id++) {
    const category = r.pick(p.leaves).title;
    const subjectNoun = r.pick(PART_NOUNS);
    const parts4 = [subjectNoun, r.pick(PART_NOUNS), r.pick(PART_NOUNS), r.pick(PART_NOUNS)];
    const subject = r.chance(0.4) ? `${cap(r.pick(ADJECTIVES))} ${cap(subjectNoun)}` : cap(subjectNoun);
    const type = id <= p.prereqs ? 'disassembly' : r.pick(GUIDE_TYPES);
    const typeTitle = type === 'how-to' ? 'How To' : cap(type);
    const title = id <= p.prereqs ? `${category} Opening Procedure` : `${category} ${subject} ${typeTitle}`;
    const authorId = r.int(WRITERS + LOGIN_USERS + 1, p.counts.users);
    const created = new Date(EPOCH + Math.floor(r.next() * (NOW - EPOCH) * 0.8));
    const modified = new Date(created.getTime() + Math.floor(r.next() * (NOW - created.getTime())));
    const visibility = p.visibility[id] as Visibility;
    const isPublic = visibility !== 1;
    const minutes = r.pick([5, 10, 15, 20, 30, 45, 60, 90, 120, 180]);
    const timeMin = r.chance(0.1) ? 0 : minutes * 60;
    const timeMax = r.chance(0.1) ? 0 : minutes * 60 * r.pick([1, 1, 2, 3]);
    const parts = Array.from({ length: r.int(0, 4) }, () => ({
      text: `${r.pick(MAKERS)} ${cap(r.pick(parts4))}`,
      type: r.chance(0.5) ? 'Part Only' : '',
      quantity: r.int(1, 4),
      notes: r.chance(0.2) ? prose.sentence(4, 8) : null,
      url: r.chance(0.3) ? `https://example.com/parts/${r.int(1, 99999)}` : null,
      thumbnail: null,
      isoptional: r.chance(0.1),
      featured: false,
    }));
    const tools = Array.from({ length: r.int(1, 5) }, () => ({
      text: cap(r.pick(TOOLS)),
      type: '',
      quantity: 1,
      notes: null,
      url: null,
      thumbnail: null,
      isoptional: r.chance(0.15),
      featured: false,
    }));
    const prerequisites = id > p.prereqs && r.chance(0.02) ? [r.int(1, p.prereqs)] : [];
    const flags = [...(isPublic && id > p.prereqs && r.chance(0.005) ? ['GUIDE_STARRED'] : []), ...(r.chance(0.1) ? ['GUIDE_USER_CONTRIBUTED'] : [])];
    const steps = [];
    const stepCount = r.int(8, 22);
    const textParts: string[] = [];
    for (let orderby = 1; orderby <= stepCount; orderby++) {
      const lineCount = r.weighted([1, 2, 3, 4, 5, 6], [10, 25, 30, 20, 10, 5]);
      const lines = [];
      let level = 0;
      for (let i = 0; i < lineCount; i++) {
        level = i === 0 ? 0 : Math.max(0, Math.min(2, level + r.weighted([-1, 0, 1], [2, 6, 2])));
        lines.push({ lineid: ++lineId, text: prose.sentence(6, 30, parts4), bullet: r.weighted(BULLETS, BULLET_WEIGHTS), level });
      }
      const media = r.chance(0.8) ? { type: 'image', imageIds: Array.from({ length: r.weighted([1, 2, 3], [70, 20, 10]) }, () => r.int(1, p.counts.images)) } : { type: 'none' };
      const stepTitle = r.chance(0.6) ? `${cap(r.pick(parts4))}` : '';
      steps.push({ id: ++stepId, orderby, revisionid: ++revision, title: stepTitle, lines, media });
      if (stepTitle) textParts.push(stepTitle);
      for (const line of lines) textParts.push(line.text);
    }
    const revisionid = ++revision;
    const state = {
      id,
      revisionid,
      authorId,
      contributorIds: [authorId],
      title,
      category,
      subject,
      type,
      difficulty: r.chance(0.9) ? r.pick(DIFFICULTIES) : null,
      summary: prose.sentence(8, 18, parts4).slice(0, 150),
      introduction: prose.paragraph(r.int(1, 3), parts4),
      conclusion: r.chance(0.8) ? 'To reassemble your device, follow these instructions in reverse order.' : '',
      timeRequiredMin: timeMin,
      timeRequiredMax: timeMax,
      imageId: r.chance(0.7) ? r.int(1, p.counts.images) : null,
      parts,
      tools,
      prerequisites,
      flags,
      isPublic,
      locale: 'en',
      createdAt: created,
      modifiedAt: modified,
      publishedAt: isPublic ? created : null,
      deletedAt: visibility === 2 ? modified : null,
    };
    await sink.guide([
      String(id),
      String(revisionid),
      String(authorId),
      intArrayLiteral(state.contributorIds),
      copyText(title),
      copyText(category),
      copyText(subject),
      type,
      state.difficulty ?? NULL,
      copyText(state.summary),
      copyText(state.introduction),
      copyText(state.conclusion),
      String(timeMin),
      String(timeMax),
      state.imageId === null ? NULL : String(state.imageId),
      json(parts),
      json(tools),
      intArrayLiteral(prerequisites),
      textArrayLiteral(flags),
      isPublic ? 't' : 'f',
      'en',
      timestamp(created),
      timestamp(modified),
      timestamp(state.publishedAt),
      timestamp(state.deletedAt),
      copyText(textParts.join('\n')),
      // A guide with comments has a discussion stamp above 0 (each comment's transaction bumps it).
      String(p.discussed[id] ? id : 0),
    ]);
    await sink.steps(steps.map((s) => [String(s.id), String(id), String(s.orderby), String(s.revisionid), copyText(s.title), json(s.lines), json(s.media)]));
    await sink.revision([String(id), String(revisionid), json({ state, steps }), String(authorId), timestamp(modified)]);
  }
}

async function loadMarks(client: pg.Client, tables: Tables, p: Plan, seed: number): Promise<Record<string, number>> {
  const r = new Random(seed, 6);
  const marks = new TableLoader(client, tables.schema, 'guide_marks', ['kind', 'user_id', 'guide_id', 'created_at'], tables.warn);
  // Popular guides get most marks: a guide's rank among `popular` is drawn with a Zipf-like law
  // (u^3 concentrates draws near the top without a table for every scale).
  const draw = () => p.popular[Math.floor(Math.pow(r.next(), 3) * p.popular.length)]!;
  for (let user = WRITERS + LOGIN_USERS + 1; user <= p.counts.users; user++) {
    for (const [kind, count] of [
      ['favorite', r.int(0, 6)],
      ['completion', r.int(0, 4)],
    ] as const) {
      const seen = new Set<number>();
      for (let i = 0; i < count; i++) {
        const guide = draw();
        if (seen.has(guide)) continue;
        seen.add(guide);
        await marks.row([kind, String(user), String(guide), timestamp(new Date(NOW - Math.floor(r.next() * 3 * 365 * 86_400_000)))]);
      }
    }
  }
  const markRows = await marks.end();
  // One COPY at a time on a connection: the next one starts only when this one has ended.
  const tags = new TableLoader(client, tables.schema, 'guide_tags', ['guide_id', 'tag', 'created_at'], tables.warn);
  for (let id = 1; id <= p.counts.guides; id++) {
    if (!r.chance(0.1)) continue;
    const chosen = new Set([r.pick(TAGS), r.pick(TAGS)]);
    for (const tag of chosen) await tags.row([String(id), copyText(tag), timestamp(new Date(NOW - Math.floor(r.next() * 365 * 86_400_000)))]);
  }
  return { guide_marks: markRows, guide_tags: await tags.end() };
}

/**
 * Teams, when the teams context's tables exist (they are being added): the columns are read
 * from the schema and filled by their names, so the generator follows the migration as it lands.
 */
async function loadTeams(client: pg.Client, tables: Tables, p: Plan, seed: number, log: (line: string) => void): Promise<Record<string, number> | null> {
  const teamColumns = tables.schema.get('teams');
  if (!teamColumns) {
    log('  teams: no teams table yet, skipped');
    return null;
  }
  const memberTable = [...tables.schema.keys()].find((name) => name.startsWith('team') && name !== 'teams' && hasColumns(tables.schema, name, ['team_id', 'user_id']));
  const r = new Random(seed, 7);
  const prose = new Prose(r);
  const t = Date.now();
  try {
    await client.query('BEGIN');
    const members: { team: number; user: number; joined: Date }[] = [];
    const teams = new TableLoader(client, tables.schema, 'teams', teamColumns.filter((c) => !c.generated).map((c) => c.name), tables.warn);
    for (let id = 1; id <= p.counts.teams; id++) {
      const created = new Date(EPOCH + Math.floor(r.next() * (NOW - EPOCH)));
      const users = new Set<number>();
      const size = r.weighted([1, 3, 8, 20], [30, 40, 20, 10]);
      while (users.size < size) users.add(r.int(WRITERS + LOGIN_USERS + 1, p.counts.users));
      const list = [...users];
      list.forEach((user, i) => members.push({ team: id, user, joined: new Date(created.getTime() + i * 86_400_000) }));
      await teams.row(teamColumns.filter((c) => !c.generated).map((c) => teamValue(c.name, c.type, c.nullable, { id, owner: list[0]!, created, name: `${r.pick(NAME_WORDS)} ${r.pick(['Fixers', 'Repair Crew', 'Makers', 'Menders', 'Lab'])} ${id}`, text: prose.sentence(8, 16) })));
    }
    const teamRows = await teams.end();
    let memberRows = 0;
    if (memberTable) {
      const columns = tables.schema.get(memberTable)!.filter((c) => !c.generated);
      const loader = new TableLoader(client, tables.schema, memberTable, columns.map((c) => c.name), tables.warn);
      for (const m of members) {
        await loader.row(columns.map((c) => (c.name === 'team_id' ? String(m.team) : c.name === 'user_id' ? String(m.user) : teamValue(c.name, c.type, c.nullable, { id: m.team, owner: m.user, created: m.joined, name: '', text: '' }))));
      }
      memberRows = await loader.end();
    }
    await client.query('COMMIT');
    log(`  teams: ${teamRows} teams${memberTable ? `, ${memberRows} members (${memberTable})` : ''} in ${secs(t)}`);
    return { teams: teamRows, team_members: memberRows };
  } catch (error) {
    await client.query('ROLLBACK');
    log(`  teams: not loaded (${error instanceof Error ? error.message : String(error)}): the teams schema changed, adapt bench/generate.ts`);
    return null;
  }
}

/**
 * Comment threads on the guides the plan marks as discussed: one to a few on the guide, sometimes
 * one on a step, each with up to four replies (threads are one level deep), by users other than
 * the bench's writers, in plain text (no markup), as the community context stores them.
 */
async function loadComments(client: pg.Client, tables: Tables, p: Plan, seed: number): Promise<Record<string, number>> {
  if (!tables.schema.has('comments')) {
    tables.warn('no comments table: guides have no discussions');
    return {};
  }
  const ids: number[] = [];
  for (let id = 1; id <= p.counts.guides; id++) if (p.discussed[id]) ids.push(id);
  const { rows: stepRanges } = await client.query<{ guide_id: number; first: number; n: number }>(
    'SELECT guide_id, min(id) AS first, count(*)::int AS n FROM guide_steps WHERE guide_id = ANY($1::int[]) GROUP BY guide_id',
    [ids],
  );
  const steps = new Map(stepRanges.map((row) => [row.guide_id, row]));
  const r = new Random(seed, 9);
  const prose = new Prose(r);
  const comments = new TableLoader(client, tables.schema, 'comments', ['id', 'context', 'context_id', 'guide_id', 'parent_id', 'author_id', 'text', 'langid', 'created_at', 'modified_at', 'deleted_at'], tables.warn);
  let commentId = 0;
  const author = () => String(r.int(WRITERS + LOGIN_USERS + 1, p.counts.users));
  const write = async (context: string, contextId: number, guideId: number, parentId: number | null, created: Date) => {
    const id = ++commentId;
    const modified = r.chance(0.1) ? new Date(created.getTime() + r.int(10, 300) * 1000) : null;
    const text = r.chance(0.7) ? prose.sentence(6, 24) : prose.paragraph(r.int(2, 4));
    await comments.row([String(id), context, String(contextId), String(guideId), parentId === null ? NULL : String(parentId), author(), copyText(text), r.chance(0.7) ? 'en' : NULL, timestamp(created), timestamp(modified), NULL]);
    return id;
  };
  for (const guideId of ids) {
    const targets: [string, number][] = Array.from({ length: r.weighted([1, 2, 3, 5], [50, 25, 15, 10]) }, () => ['guide', guideId]);
    const range = steps.get(guideId);
    if (range && r.chance(0.3)) targets.push(['step', range.first + r.int(0, range.n - 1)]);
    for (const [context, contextId] of targets) {
      const created = new Date(NOW - 30 * 86_400_000 - Math.floor(r.next() * 2 * 365 * 86_400_000));
      const parent = await write(context, contextId, guideId, null, created);
      const replies = r.weighted([0, 1, 2, 4], [40, 30, 20, 10]);
      for (let i = 1; i <= replies; i++) await write(context, contextId, guideId, parent, new Date(created.getTime() + i * r.int(1, 72) * 3_600_000));
    }
  }
  return { comments: await comments.end() };
}

/**
 * The images content shows, as the media context stores an upload made into every size: a 12 MP
 * JPEG (4:3) of one of the users, ready, version 1, with the nine sizes of the current version.
 * Their files are not written (the media-size scenario uploads its own): what a guide's body
 * costs is looking the images up and showing their sizes, which these rows make the API do. An
 * image's sizes are stored together, as its processing writes them.
 */
async function loadImages(client: pg.Client, tables: Tables, p: Plan): Promise<Record<string, number>> {
  if (!tables.schema.has('media_images') || !tables.schema.has('media_image_sizes')) {
    tables.warn('no media tables: guides show no images');
    return {};
  }
  const created = timestamp(new Date(EPOCH));
  const sizes = Object.values(IMAGE_SIZES);
  // Every size made, named on the image's row too (in name order), as the media repository writes them.
  const images = await client.query(
    `INSERT INTO media_images (id, guid, owner_id, src_id, filename, format, has_alpha, byte_size, source_width, source_height, orientation, crop, rotation, width, height, ratio, version, exif, status, created_at, shown_sizes)
     SELECT g, 'i' || g, 1 + g % $2, NULL, 'photo-' || g || '.jpg', 'jpeg', false, 3400000 + g % 400000, 4000, 3000, 1, NULL, 0, 4000, 3000, 'FOUR_THREE', 1, '{}'::jsonb, 'ready', $3::timestamptz, $4::varchar(10)[]
       FROM generate_series(1, $1::int) g`,
    [p.counts.images, p.counts.users, created, sizes.map((size) => size.name).sort()],
  );
  const imageSizes = await client.query(
    `INSERT INTO media_image_sizes (image_id, size, version, width, height, format, byte_size)
     SELECT g, s.name, 1, s.width, s.height, 'jpeg', s.width * s.height / 6 + g % 1000
       FROM generate_series(1, $1::int) g CROSS JOIN unnest($2::text[], $3::int[], $4::int[]) AS s(name, width, height)
      ORDER BY g, s.name`,
    [p.counts.images, sizes.map((size) => size.name), sizes.map((size) => size.width), sizes.map((size) => size.height)],
  );
  return { media_images: images.rowCount ?? 0, media_image_sizes: imageSizes.rowCount ?? 0 };
}

function hasColumns(schema: Schema, table: string, names: string[]): boolean {
  const columns = schema.get(table) ?? [];
  return names.every((name) => columns.some((c) => c.name === name));
}

function teamValue(name: string, type: string, nullable: boolean, v: { id: number; owner: number; created: Date; name: string; text: string }): string {
  if (name === 'id') return String(v.id);
  if (name === 'name' || name === 'title') return copyText(v.name);
  if (name.includes('owner') || name === 'created_by' || name === 'user_id') return String(v.owner);
  if (name === 'deleted_at' || name === 'join_code' || name === 'revoked_at') return nullable ? NULL : '';
  if (type === 'timestamptz' || type === 'timestamp') return timestamp(v.created);
  if (type === 'text' || type === 'varchar') return nullable ? NULL : copyText(v.text);
  if (type.startsWith('int')) return nullable ? NULL : '0';
  if (type === 'bool') return 'f';
  if (type === 'jsonb' || type === 'json') return '[]';
  if (type.startsWith('_')) return '{}';
  return NULL;
}

/** Every sequence past the ids loaded (owned sequences by their column; the revision sequences by every revision id). */
async function setSequences(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ seq: string; tbl: string; col: string }>(
    `SELECT s.relname AS seq, t.relname AS tbl, a.attname AS col
       FROM pg_class s JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')
       JOIN pg_class t ON t.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
       JOIN pg_namespace n ON n.oid = s.relnamespace
      WHERE s.relkind = 'S' AND n.nspname = 'public'`,
  );
  for (const row of rows) {
    await client.query(`SELECT setval('"${row.seq}"', m) FROM (SELECT max("${row.col}") AS m FROM "${row.tbl}") x WHERE m IS NOT NULL`);
  }
  const exists = async (seq: string) => (await client.query(`SELECT 1 FROM pg_class WHERE relkind = 'S' AND relname = $1`, [seq])).rowCount === 1;
  if (await exists('guide_revision_seq')) {
    await client.query(`SELECT setval('guide_revision_seq', GREATEST(1, (SELECT max(m) FROM (
      SELECT max(revisionid) AS m FROM guides UNION ALL SELECT max(revisionid) FROM guide_steps UNION ALL SELECT max(revisionid) FROM guide_revisions) x)))`);
  }
  if (await exists('guide_discussion_seq')) {
    await client.query(`SELECT setval('guide_discussion_seq', GREATEST(1, (SELECT max(discussion_seq) FROM guides)))`);
  }
  if (await exists('wiki_revision_seq')) {
    await client.query(`SELECT setval('wiki_revision_seq', GREATEST(1, (SELECT max(m) FROM (SELECT max(revisionid) AS m FROM wiki_pages UNION ALL SELECT max(revisionid) FROM wiki_revisions) x)))`);
  }
}
