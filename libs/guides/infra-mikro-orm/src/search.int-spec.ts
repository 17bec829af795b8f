import { RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { InMemoryGuideImages } from '@rc/guides-domain/testing';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AddStep, CreateGuide, EditStep, type Editor, type GuideInput, type GuideWriteDeps, type StepInput } from '@rc/guides-domain';
import { MikroOrmUnitOfWork, ormConfig } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock } from '@rc/shared-kernel';
import { guidesMigrations } from './migrations/index.js';
import { guidesSchemas, guidesTables } from './schemas/guides.schemas.js';
import { MikroOrmGuideRepository } from './repositories/mikro-orm-guide.repository.js';
import { CatalogCategoryDirectory, MikroOrmGuideEventOutbox } from './repositories/mikro-orm-guide-activity.js';
import { MikroOrmGuideQueries } from './repositories/mikro-orm-guide-queries.js';
import { MAX_STEPS_TEXT_BYTES, stepsPlainText } from './repositories/steps-text.js';

/** No teams: these tests share guides with users only. */
const NO_TEAMS = { teamIdsOf: async () => [], exists: async () => false } as unknown as GuideWriteDeps['teams'];

/** Queries a user can type or a client can send that must never become a database error. */
const HOSTILE_QUERIES = [
  '',
  '   ',
  '\u0000',
  'battery\u0000',
  '&|!',
  '&',
  '|',
  '!',
  '!!battery',
  '(((',
  ')))',
  '()',
  "'",
  "''",
  '"',
  '"unterminated phrase',
  '\\',
  '\\\\:*',
  'a:*',
  ':*',
  '*',
  'batt:*A',
  'hinge:*ABCD & !',
  '<->',
  '<2>',
  'hinge <-> door',
  'hinge & | ! door',
  '-',
  '--hinge',
  'or',
  'hinge or',
  'or or or',
  'the',
  'the and of',
  "'; DROP TABLE guides; --",
  '%',
  '_',
  '$1',
  '?',
  '??',
  '🔧🔩',
  'hinge 🔧',
  '\ud800',
  'e\u0301cran',
  'écran',
  'ремонт',
  '修理',
  'إصلاح',
  'x'.repeat(3000),
  'hinge '.repeat(2000),
  Array.from({ length: 500 }, (_, i) => `w${i}`).join(' | '),
  '\t\n\r',
];

describe('guide search (PostgreSQL full text)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let deps: GuideWriteDeps;
  let queries: MikroOrmGuideQueries;
  const author: Editor = { userId: 7, isAdmin: false };
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const line = (text: string) => ({ text, bullet: 'black', level: 0 });
  const page = (limit = 20, offset = 0) => ({ limit, offset });
  const suggest = (query: string, limit: number) => inContext(() => queries.suggest(query, limit)).then((found) => found.results);

  async function guide(fields: GuideInput, steps: StepInput[] = []): Promise<number> {
    let created = await inContext(() => new CreateGuide(deps).execute({ editor: author, fields: { category: 'Door', type: 'repair', public: true, ...fields } }));
    for (const step of steps) created = await inContext(() => new AddStep(deps).execute({ editor: author, guideId: created.id, step }));
    return created.id;
  }

  beforeAll(async () => {
    db = await createTestOrm({ entities: guidesSchemas, migrations: guidesMigrations });
    em = db.orm.em as EntityManager;
    deps = {
      guides: new MikroOrmGuideRepository(em),
      categories: new CatalogCategoryDirectory(em),
      images: new InMemoryGuideImages(),
      outbox: new MikroOrmGuideEventOutbox(em), events: new RecordingIntegrationEvents(),
      clock: new SystemClock(),
      uow: new MikroOrmUnitOfWork(em),
      teams: NO_TEAMS,
    };
    queries = new MikroOrmGuideQueries(em);
    // The catalog context owns wiki_pages; guides only read category titles from it.
    await em.fork().execute(`CREATE TABLE wiki_pages (namespace varchar(16), title varchar(255), deleted_at timestamptz)`);
    await em.fork().execute(`INSERT INTO wiki_pages VALUES ('CATEGORY', 'Door', NULL), ('CATEGORY', 'Kettle', NULL)`);
  });
  beforeEach(() => db.truncate(guidesTables));
  afterAll(() => db.close());

  it('ranks a guide whose title matches above one whose steps mention the word', async () => {
    const inSteps = await guide({ title: 'Door Alignment', summary: 'Make the door close again.' }, [{ lines: [line('Tighten every hinge screw.'), line('Check the hinge pins.')] }]);
    const inTitle = await guide({ title: 'Hinge Replacement', summary: 'Swap a worn part.' }, [{ lines: [line('Unscrew the old part.')] }]);
    const found = await inContext(() => queries.search('hinge', page()));
    expect(found.total).toBe(2);
    expect(found.results.map((g) => g.guideid)).toEqual([inTitle, inSteps]);
    expect(found.results[0]!.rank).toBeGreaterThan(found.results[1]!.rank);
    expect(found.results[0]).toMatchObject({ title: 'Hinge Replacement', category: 'Door', isPublic: true, authorId: 7 });
    // Stemming: the plural finds the singular.
    expect((await inContext(() => queries.search('hinges', page()))).total).toBe(2);
  });

  it('weighs summary above introduction, subject and category, and those above steps', async () => {
    const a = await guide({ title: 'A', summary: 'About the gasket.' });
    const c = await guide({ title: 'C', introduction: 'The gasket wears out.' });
    const d = await guide({ title: 'D' }, [{ lines: [line('Replace the gasket.')] }]);
    const s = await guide({ title: 'S', subject: 'Gasket' });
    const ids = (await inContext(() => queries.search('gasket', page()))).results.map((g) => g.guideid);
    expect(ids).toEqual([a, c, s, d]);
  });

  it('keeps the plain text of the steps (markup dropped) and rewrites it when a step changes', async () => {
    const id = await guide({ title: 'Kettle Descaling', category: 'Kettle' }, [
      { title: 'Prepare', lines: [line("Use '''white''' vinegar from [link|https://example.com/shop|the corner shop].")] },
    ]);
    const [row] = await em.fork().execute<{ steps_text: string }[]>('SELECT steps_text FROM guides WHERE id = ?', [id]);
    expect(row!.steps_text).toBe('Prepare\nUse white vinegar from the corner shop.');
    expect((await inContext(() => queries.search('vinegar', page()))).results.map((g) => g.guideid)).toEqual([id]);
    expect((await inContext(() => queries.search('example.com', page()))).total).toBe(0);

    const stored = (await inContext(() => deps.guides.findById(id as never)))!;
    const step = stored.steps[0]!;
    await inContext(() => new EditStep(deps).execute({ editor: author, guideId: stored.id, stepId: step.id, revisionid: step.revisionid, step: { lines: [line('Use citric acid.')] } }));
    expect((await inContext(() => queries.search('vinegar', page()))).total).toBe(0);
    expect((await inContext(() => queries.search('citric', page()))).results.map((g) => g.guideid)).toEqual([id]);
  });

  it('never returns private or deleted guides, in search or suggest', async () => {
    const pub = await guide({ title: 'Hinge Lubrication' });
    await guide({ title: 'Hinge Secret Draft', public: false });
    const gone = await guide({ title: 'Hinge Gone' });
    await em.fork().execute('UPDATE guides SET deleted_at = now() WHERE id = ?', [gone]);
    const found = await inContext(() => queries.search('hinge', page()));
    expect(found).toMatchObject({ total: 1, results: [{ guideid: pub }] });
    expect((await inContext(() => queries.search('secret', page()))).total).toBe(0);
    expect((await suggest('hin', 10)).map((g) => g.guideid)).toEqual([pub]);
    expect(await suggest('secr', 10)).toEqual([]);
  });

  it('pages the hits with the real total, and filters by type', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await guide({ title: `Hinge guide ${i}`, type: i === 4 ? 'teardown' : 'repair' }));
    const first = await inContext(() => queries.search('hinge', page(2, 0)));
    const last = await inContext(() => queries.search('hinge', page(2, 4)));
    const beyond = await inContext(() => queries.search('hinge', page(2, 10)));
    expect(first.total).toBe(5);
    expect(first.results.map((g) => g.guideid)).toEqual(ids.slice(0, 2)); // equal ranks: by id
    expect(last).toMatchObject({ total: 5, results: [{ guideid: ids[4] }] });
    expect(beyond).toEqual({ total: 5, results: [] });
    expect(await inContext(() => queries.search('hinge', page(), ['teardown']))).toMatchObject({ total: 1, results: [{ guideid: ids[4], type: 'teardown' }] });
    expect((await inContext(() => queries.search('hinge', page(), ['repair', 'teardown']))).total).toBe(5);
    expect(await inContext(() => queries.search('hinge', page(), ['no-such-type']))).toEqual({ total: 0, results: [] });
    expect(await inContext(() => queries.search('hinge', page(), []))).toEqual({ total: 0, results: [] });
  });

  it('pages across the two zones: head matches first, then step-only matches, whatever the offset', async () => {
    const heads: number[] = [];
    const steps: number[] = [];
    for (let i = 0; i < 3; i++) heads.push(await guide({ title: `Latch guide ${i}` }));
    for (let i = 0; i < 3; i++) steps.push(await guide({ title: `Door guide ${i}` }, [{ lines: [line(i === 0 ? 'Check the latch, the latch spring and the latch pin.' : 'Oil the latch.')] }]));
    const ids = async (limit: number, offset: number, types?: string[]) => (await inContext(() => queries.search('latch', page(limit, offset), types))).results.map((g) => g.guideid);
    expect(await ids(20, 0)).toEqual([...heads, ...steps]);
    expect(await ids(2, 2)).toEqual([heads[2], steps[0]]);
    expect(await ids(2, 3)).toEqual([steps[0], steps[1]]);
    expect(await ids(2, 5)).toEqual([steps[2]]);
    expect(await ids(2, 6)).toEqual([]);
    expect(await ids(4, 1, ['repair'])).toEqual([heads[1], heads[2], steps[0], steps[1]]);
    expect((await inContext(() => queries.search('latch', page(2, 4)))).total).toBe(6);
    // Suggestions fill up with step-only matches in the same order.
    expect((await suggest('lat', 4)).map((g) => g.guideid)).toEqual([...heads, steps[0]]);
  });

  it('keeps the pending lists of the search indexes short (the head index takes entries at once)', async () => {
    const rows = await em.fork().execute<{ relname: string; reloptions: string[] | null }[]>(
      `SELECT relname, reloptions FROM pg_class WHERE relname IN ('guides_search_head_idx', 'guide_search_heads_idx', 'guides_search_idx') ORDER BY relname`,
    );
    expect(rows).toEqual([
      { relname: 'guide_search_heads_idx', reloptions: ['fastupdate=off'] },
      { relname: 'guides_search_idx', reloptions: ['gin_pending_list_limit=256'] },
    ]);
  });

  it('keeps the search heads of the listed guides only, each as its guide has it now, whatever writes the guide', async () => {
    const heads = async () =>
      em.fork().execute<{ id: number; same: boolean }[]>(
        `SELECT g.id, h.search_head = g.search_head AS same FROM guide_search_heads h JOIN guides g ON g.id = h.guide_id ORDER BY g.id`,
      );
    const listed = await guide({ title: 'Kettle Lid Hinge' });
    const draft = await guide({ title: 'Kettle Base', public: false });
    const other = await guide({ title: 'Kettle Spout' });
    expect(await heads()).toEqual([
      { id: listed, same: true },
      { id: other, same: true },
    ]);
    const fork = em.fork();
    await fork.execute(`UPDATE guides SET title = 'Kettle Lid Latch' WHERE id = ?`, [listed]);
    await fork.execute('UPDATE guides SET is_public = true WHERE id = ?', [draft]);
    await fork.execute('UPDATE guides SET deleted_at = now() WHERE id = ?', [other]);
    expect(await heads()).toEqual([
      { id: listed, same: true },
      { id: draft, same: true },
    ]);
    expect((await suggest('latc', 10)).map((g) => g.guideid)).toEqual([listed]);
    expect(await suggest('hing', 10)).toEqual([]);
    expect((await suggest('kett', 10)).map((g) => g.guideid)).toEqual([listed, draft]);
    await fork.execute('UPDATE guides SET deleted_at = NULL WHERE id = ?', [other]);
    await fork.execute('UPDATE guides SET is_public = false WHERE id = ?', [listed]);
    expect((await heads()).map((h) => h.id)).toEqual([draft, other]);
    for (const table of ['guide_stats', 'guide_revisions', 'guide_steps']) await fork.execute(`DELETE FROM ${table} WHERE guide_id = ?`, [draft]);
    await fork.execute('DELETE FROM guides WHERE id = ?', [draft]);
    expect((await heads()).map((h) => h.id)).toEqual([other]);
  });

  it('understands web-search syntax: phrases, or, and exclusion', async () => {
    const door = await guide({ title: 'Door Hinge Repair' });
    const gate = await guide({ title: 'Gate Latch Repair' });
    const search = async (q: string) => (await inContext(() => queries.search(q, page()))).results.map((g) => g.guideid).sort((x, y) => x - y);
    expect(await search('"hinge repair"')).toEqual([door]);
    expect(await search('"repair hinge"')).toEqual([]);
    expect(await search('hinge or latch')).toEqual([door, gate]);
    expect(await search('repair -latch')).toEqual([door]);
  });

  it('suggests by word prefixes, every word must match, best first, at most the limit', async () => {
    const battery = await guide({ title: 'Battery Replacement' });
    const inSteps = await guide({ title: 'Screen Replacement' }, [{ lines: [line('Disconnect the battery first.')] }]);
    await guide({ title: 'Door Alignment' });
    expect((await suggest('batt', 10)).map((g) => g.guideid)).toEqual([battery, inSteps]);
    expect((await suggest('Batt Repl', 10)).map((g) => g.guideid)).toEqual([battery, inSteps]);
    expect((await suggest('batt scr', 10)).map((g) => g.guideid)).toEqual([inSteps]);
    expect((await suggest('  batt!!  ', 10)).map((g) => g.guideid)).toEqual([battery, inSteps]);
    expect(await suggest('batt', 1)).toHaveLength(1);
    expect(await suggest('batt', 0)).toEqual([]);
    expect(await suggest('zzz', 10)).toEqual([]);
    // How many heads match (the step-only match is not counted), kept rankings included.
    expect((await inContext(() => queries.suggest('batt', 10))).matches).toBe(1);
    expect((await inContext(() => queries.suggest('zzz', 10))).matches).toBe(0);
  });

  it('answers every hostile query with a valid result, never a database error', async () => {
    await guide({ title: 'Hinge Replacement' }, [{ lines: [line('écran ремонт 修理')] }]);
    for (const q of HOSTILE_QUERIES) {
      const found = await inContext(() => queries.search(q, page())).catch((error: unknown) => ({ q, error: String(error) }));
      expect(found).toEqual({ total: expect.any(Number), results: expect.any(Array) });
      const suggested = await suggest(q, 10).catch((error: unknown) => ({ q, error: String(error) }));
      expect(suggested).toEqual(expect.any(Array));
    }
    expect((await inContext(() => queries.search('hinge\u0000', page()))).total).toBe(0);
    expect((await inContext(() => queries.search('hinge '.repeat(2000), page()))).total).toBe(1);
    expect((await inContext(() => queries.search('ремонт', page()))).total).toBe(1);
    expect((await suggest('рем', 10)).length).toBe(1);
    expect((await suggest('e\u0301cr', 10)).length).toBe(1);
  });

  it('indexes the search vector with GIN', async () => {
    const rows = await em.fork().execute<{ indexdef: string }[]>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'guides' AND indexname = 'guides_search_idx'`);
    expect(rows[0]?.indexdef).toMatch(/USING gin \(search_vector\)/);
  });

  it('caps the step text on a line boundary', () => {
    const steps = Array.from({ length: 500 }, (_, i) => ({ title: `Step ${i}`, lines: Array.from({ length: 8 }, () => ({ text: 'ü'.repeat(349) })) }));
    const text = stepsPlainText(steps);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_STEPS_TEXT_BYTES);
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_STEPS_TEXT_BYTES - 1000);
    expect(text.split('\n').every((l) => l.startsWith('Step') || l === 'ü'.repeat(349))).toBe(true);
  });
});

describe('guide search migration', () => {
  it('backfills the step text of guides stored before it', async () => {
    const db = await createTestOrm({ entities: guidesSchemas, migrations: guidesMigrations.slice(0, 1) });
    const em = db.orm.em.fork();
    await em.execute(`INSERT INTO guides (id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary, introduction, conclusion,
        time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags, is_public, locale, created_at, modified_at, published_at, deleted_at)
      SELECT n, 1, 7, '{}', 'Guide ' || n, 'Door', '', 'repair', NULL, '', '', '', 0, 0, NULL, '[]', '[]', '{}', '{}', true, 'en', now(), now(), now(), NULL
        FROM generate_series(1, 450) AS n`);
    await em.execute(`INSERT INTO guide_steps (id, guide_id, orderby, revisionid, title, lines, media)
      SELECT n, n, 1, 2, 'Step of ' || n, jsonb_build_array(jsonb_build_object('text', '''''''Loosen''''''' || ' the hinge', 'bullet', 'black', 'level', 0)), '{"type":"none"}'
        FROM generate_series(1, 449) AS n`);
    const orm = await MikroORM.init(ormConfig({ clientUrl: db.url, entities: guidesSchemas, migrations: guidesMigrations }));
    try {
      await orm.migrator.up();
      const rows = await orm.em.fork().execute<{ id: number; steps_text: string }[]>('SELECT id, steps_text FROM guides WHERE id IN (1, 449, 450) ORDER BY id');
      expect(rows).toEqual([
        { id: 1, steps_text: 'Step of 1\nLoosen the hinge' },
        { id: 449, steps_text: 'Step of 449\nLoosen the hinge' },
        { id: 450, steps_text: '' },
      ]);
      const found = await RequestContext.create(orm.em, () => new MikroOrmGuideQueries(orm.em as EntityManager).search('loosen', { limit: 1, offset: 0 }));
      expect(found.total).toBe(449);
    } finally {
      await orm.close(true);
      await db.close();
    }
  });

  it('copies the heads of the listed guides stored before the heads table, and only theirs', async () => {
    const db = await createTestOrm({ entities: guidesSchemas, migrations: guidesMigrations.filter((m) => m.name !== '20261206100000-guides-search-heads') });
    const em = db.orm.em.fork();
    // Guides 1 to 10: 3 private, 6 deleted, the others listed.
    await em.execute(`INSERT INTO guides (id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary, introduction, conclusion,
        time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags, is_public, locale, created_at, modified_at, published_at, deleted_at)
      SELECT n, 1, 7, '{}', 'Hinge guide ' || n, 'Door', '', 'repair', NULL, '', '', '', 0, 0, NULL, '[]', '[]', '{}', '{}', n <> 3, 'en', now(), now(), now(),
             CASE WHEN n = 6 THEN now() END
        FROM generate_series(1, 10) AS n`);
    const orm = await MikroORM.init(ormConfig({ clientUrl: db.url, entities: guidesSchemas, migrations: guidesMigrations }));
    try {
      await orm.migrator.up();
      const heads = await orm.em.fork().execute<{ id: number; same: boolean }[]>(
        'SELECT h.guide_id AS id, h.search_head = g.search_head AS same FROM guide_search_heads h JOIN guides g ON g.id = h.guide_id ORDER BY h.guide_id',
      );
      expect(heads).toEqual([1, 2, 4, 5, 7, 8, 9, 10].map((id) => ({ id, same: true })));
      const suggested = await RequestContext.create(orm.em, () => new MikroOrmGuideQueries(orm.em as EntityManager).suggest('hing', 20));
      expect(suggested.results.map((g) => g.guideid)).toEqual([1, 2, 4, 5, 7, 8, 9, 10]);
    } finally {
      await orm.close(true);
      await db.close();
    }
  });
});
