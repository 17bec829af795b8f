import { RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { InMemoryGuideImages } from '@rc/guides-domain/testing';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AddStep,
  CreateGuide,
  EditGuide,
  EditStep,
  RemoveStep,
  ReorderSteps,
  StaleStepRevisionError,
  type Editor,
  type Guide,
  type GuideId,
  type GuideWriteDeps,
} from '@rc/guides-domain';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock } from '@rc/shared-kernel';
import { guidesMigrations } from './migrations/index.js';
import { GUIDE_SEARCH_VECTOR } from './migrations/20261122300000-guides-search.js';
import { GUIDES_LZ4_COLUMNS, SERVER_HAS_LZ4 } from './migrations/20261203100000-guides-lz4.js';
import { guidesSchemas, guidesTables } from './schemas/guides.schemas.js';
import { MikroOrmGuideRepository } from './repositories/mikro-orm-guide.repository.js';
import { CatalogCategoryDirectory, MikroOrmGuideEventOutbox } from './repositories/mikro-orm-guide-activity.js';

/** No teams: these tests share guides with users only. */
const NO_TEAMS = { teamIdsOf: async () => [], exists: async () => false } as unknown as GuideWriteDeps['teams'];

/** Writes store what changed and nothing else, in few statements, and stay correct under concurrency. */
describe('guide writes (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let deps: GuideWriteDeps;
  let repo: MikroOrmGuideRepository;
  const statements: string[] = [];
  const author: Editor = { userId: 7, isAdmin: false };
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const line = (text: string, level = 0) => ({ text, bullet: 'black', level });

  beforeAll(async () => {
    db = await createTestOrm({ entities: guidesSchemas, migrations: guidesMigrations, onQuery: (sql) => statements.push(sql) });
    em = db.orm.em as EntityManager;
    repo = new MikroOrmGuideRepository(em);
    deps = { guides: repo, categories: new CatalogCategoryDirectory(em), images: new InMemoryGuideImages(), outbox: new MikroOrmGuideEventOutbox(em), events: new RecordingIntegrationEvents(), clock: new SystemClock(), uow: new MikroOrmUnitOfWork(em), teams: NO_TEAMS };
    await em.fork().execute(`CREATE TABLE wiki_pages (namespace varchar(16), title varchar(255), deleted_at timestamptz)`);
    await em.fork().execute(`INSERT INTO wiki_pages VALUES ('CATEGORY', 'iPhone 12', NULL)`);
  });
  beforeEach(() => db.truncate(guidesTables));
  afterAll(() => db.close());

  /** A guide with `count` steps. */
  async function guideWithSteps(count: number): Promise<Guide> {
    let guide = await inContext(() => new CreateGuide(deps).execute({ editor: author, fields: { category: 'iPhone 12', type: 'replacement', subject: 'Battery', summary: 'First' } }));
    for (let i = 0; i < count; i++) {
      guide = await inContext(() => new AddStep(deps).execute({ editor: author, guideId: guide.id, step: { title: `Step ${i}`, lines: [line(`Line of step ${i}`)] } }));
    }
    return guide;
  }

  /** Each step row's transaction id: a row written again gets a new one. */
  const stepRows = async (id: GuideId) =>
    em.fork().execute<{ id: number; xmin: string; orderby: number; revisionid: number; title: string }[]>(
      'SELECT id, xmin::text AS xmin, orderby, revisionid, title FROM guide_steps WHERE guide_id = ? ORDER BY orderby',
      [id],
    );
  const stored = (id: GuideId) => inContext(() => repo.findById(id));
  const latestSnapshot = async (guide: Guide) => (await inContext(() => repo.snapshot(guide.id, guide.state.revisionid)))!;
  /** Statements of the work, transaction control aside. */
  async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
    const before = statements.length;
    const result = await work();
    return { result, sql: statements.slice(before).filter((sql) => !/^(begin|commit|rollback)\b/i.test(sql.trim())) };
  }

  it('an edit of the guide fields writes no step and runs one read and one write', async () => {
    const guide = await guideWithSteps(3);
    const rowsBefore = await stepRows(guide.id);
    const { result: edited, sql } = await statementsOf(() =>
      inContext(() => new EditGuide(deps).execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { summary: 'Second' } })),
    );
    expect(sql).toHaveLength(2);
    expect(sql.some((s) => /guide_steps \(/.test(s))).toBe(false);
    expect(await stepRows(guide.id)).toEqual(rowsBefore);
    expect(edited.state.revisionid).toBeGreaterThan(guide.state.revisionid);
    const now = (await stored(guide.id))!;
    expect(now.state).toEqual(edited.state);
    expect(now.state.summary).toBe('Second');
    const snapshot = await latestSnapshot(edited);
    expect(snapshot.state).toEqual(edited.state);
    expect(snapshot.steps).toEqual(edited.steps.map((s) => s.toState()));
  });

  it('an edit of one step writes only that step; the others are intact', async () => {
    const guide = await guideWithSteps(4);
    const before = await stepRows(guide.id);
    const target = guide.steps[2]!;
    const edited = await inContext(() =>
      new EditStep(deps).execute({ editor: author, guideId: guide.id, stepId: target.id, revisionid: target.revisionid, step: { title: 'Edited title' } }),
    );
    const after = await stepRows(guide.id);
    expect(after.filter((r) => r.id !== target.id)).toEqual(before.filter((r) => r.id !== target.id));
    const row = after.find((r) => r.id === target.id)!;
    expect(row.xmin).not.toBe(before.find((r) => r.id === target.id)!.xmin);
    expect(row.title).toBe('Edited title');
    expect(row.revisionid).toBeGreaterThan(target.revisionid);
    expect(row.revisionid).toBeLessThan(edited.state.revisionid);
    const now = (await stored(guide.id))!;
    expect(now.steps.map((s) => s.toState())).toEqual(edited.steps.map((s) => s.toState()));
    expect((await latestSnapshot(edited)).steps).toEqual(edited.steps.map((s) => s.toState()));
    const [text] = await em.fork().execute<{ steps_text: string }[]>('SELECT steps_text FROM guides WHERE id = ?', [guide.id]);
    expect(text!.steps_text).toContain('Edited title');
    expect(text!.steps_text).toContain('Line of step 3');
  });

  it('adding, moving and removing steps write the steps concerned only, and read back as saved', async () => {
    const guide = await guideWithSteps(4);
    const before = await stepRows(guide.id);
    // Inserted second: the three after it move down; the first is untouched.
    const added = await inContext(() => new AddStep(deps).execute({ editor: author, guideId: guide.id, step: { orderby: 2, lines: [line('Inserted')] } }));
    let after = await stepRows(guide.id);
    expect(after).toHaveLength(5);
    expect(after[0]).toEqual(before[0]);
    expect(after.map((r) => r.orderby)).toEqual([1, 2, 3, 4, 5]);
    expect((await stored(guide.id))!.steps.map((s) => s.toState())).toEqual(added.steps.map((s) => s.toState()));

    // Swapping the last two moves only them.
    const ids = added.steps.map((s) => s.id);
    const reordered = await inContext(() =>
      new ReorderSteps(deps).execute({ editor: author, guideId: guide.id, revisionid: added.state.revisionid, stepids: [...ids.slice(0, 3), ids[4], ids[3]] }),
    );
    const moved = await stepRows(guide.id);
    expect(moved.slice(0, 3)).toEqual(after.slice(0, 3));
    expect(moved.map((r) => r.id)).toEqual([...ids.slice(0, 3), ids[4], ids[3]]);
    after = moved;

    // Removing the first moves the others up.
    const first = reordered.steps[0]!;
    const removed = await inContext(() => new RemoveStep(deps).execute({ editor: author, guideId: guide.id, stepId: first.id, revisionid: first.revisionid }));
    expect((await stepRows(guide.id)).map((r) => [r.id, r.orderby])).toEqual(after.slice(1).map((r, i) => [r.id, i + 1]));
    const now = (await stored(guide.id))!;
    expect(now.steps.map((s) => s.toState())).toEqual(removed.steps.map((s) => s.toState()));
    expect((await latestSnapshot(removed)).steps).toEqual(removed.steps.map((s) => s.toState()));
  });

  it('a guide read without a record of how it was stored is written whole', async () => {
    const guide = await guideWithSteps(2);
    const saved = await inContext(() =>
      deps.uow.run(async () => {
        const [g] = await repo.findMany([guide.id]);
        g!.edit(author, { summary: 'Written whole' }, new Date());
        await repo.save(g!);
        return g!;
      }),
    );
    const now = (await stored(guide.id))!;
    expect(now.state).toEqual(saved.state);
    expect(now.steps.map((s) => s.toState())).toEqual(saved.steps.map((s) => s.toState()));
  });

  it('concurrent step additions all land, numbered 1 to 10 (each writer reads the steps after taking the lock)', async () => {
    const guide = await guideWithSteps(0);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => inContext(() => new AddStep(deps).execute({ editor: author, guideId: guide.id, step: { lines: [line(`Concurrent ${i}`)] } }))),
    );
    const now = (await stored(guide.id))!;
    expect(now.steps.map((s) => s.orderby)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(now.steps.map((s) => s.lines[0]!.text).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Concurrent ${i}`).sort());
    // The last revision's snapshot holds every step, as stored.
    expect((await latestSnapshot(now)).steps).toEqual(now.steps.map((s) => s.toState()));
  });

  it('concurrent edits of different steps are all kept; of one step with the same revision, exactly one wins', async () => {
    const guide = await guideWithSteps(6);
    await Promise.all(
      guide.steps.map((step, i) =>
        inContext(() => new EditStep(deps).execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { title: `Concurrent ${i}` } })),
      ),
    );
    let now = (await stored(guide.id))!;
    expect(now.steps.map((s) => s.title)).toEqual(guide.steps.map((_, i) => `Concurrent ${i}`));
    expect((await latestSnapshot(now)).steps).toEqual(now.steps.map((s) => s.toState()));
    const [text] = await em.fork().execute<{ steps_text: string }[]>('SELECT steps_text FROM guides WHERE id = ?', [guide.id]);
    for (let i = 0; i < 6; i++) expect(text!.steps_text).toContain(`Concurrent ${i}`);

    const step = now.steps[0]!;
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        inContext(() => new EditStep(deps).execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { title: `Race ${i}` } })),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.every((r) => r.status === 'fulfilled' || r.reason instanceof StaleStepRevisionError)).toBe(true);
    now = (await stored(guide.id))!;
    const winner = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<Guide>).value;
    expect(now.steps.map((s) => s.toState())).toEqual(winner.steps.map((s) => s.toState()));
  });

  /**
   * The search document as stored, beside the one the texts make (the whole step text parsed, as
   * `search_vector` was generated before `steps_vector`), and the steps' part as kept.
   */
  const searchOf = async (id: GuideId) =>
    (await em.fork().execute<{ stored: string; parsed: string; steps: string | null }[]>(
      `SELECT search_vector::text AS stored, (${GUIDE_SEARCH_VECTOR})::text AS parsed, steps_vector::text AS steps FROM guides WHERE id = ?`,
      [id],
    ))[0]!;

  it('the search document stays its texts\': a head edit joins the kept steps\' vector, a step edit parses the steps again', async () => {
    const guide = await guideWithSteps(3);
    const created = await searchOf(guide.id);
    expect(created.steps).toContain('step');
    expect(created.stored).toBe(created.parsed);

    // A summary edit: the steps' vector is kept, not parsed (no step text sent), the document is new.
    const { result: edited, sql } = await statementsOf(() =>
      inContext(() => new EditGuide(deps).execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { summary: 'Descaling a kettle', title: 'Kettle' } })),
    );
    const write = sql.find((q) => /UPDATE guides/.test(q))!;
    expect(write).toContain('coalesce(steps_vector');
    expect(write).not.toContain('steps_text =');
    const afterHead = await searchOf(guide.id);
    expect(afterHead.steps).toBe(created.steps);
    expect(afterHead.stored).toBe(afterHead.parsed);
    expect(afterHead.stored).toContain("'descal'");

    // A step edit: the steps' vector follows the new text.
    const target = edited.steps[1]!;
    await inContext(() => new EditStep(deps).execute({ editor: author, guideId: guide.id, stepId: target.id, revisionid: target.revisionid, step: { title: 'Unscrew the heater' } }));
    const afterStep = await searchOf(guide.id);
    expect(afterStep.steps).toContain("'heater'");
    expect(afterStep.stored).toBe(afterStep.parsed);
  });

  it('large values are compressed with LZ4 where the server has it (pglz where not), and read back whole', async () => {
    const [{ lz4 }] = await em.fork().execute<{ lz4: boolean }[]>(`SELECT ${SERVER_HAS_LZ4} AS lz4`);
    const columns = await em.fork().execute<{ relname: string; attname: string; compression: string }[]>(
      `SELECT c.relname, a.attname, a.attcompression::text AS compression
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relname = ANY (string_to_array(?, ',')) AND a.attnum > 0 AND NOT a.attisdropped`,
      [GUIDES_LZ4_COLUMNS.map(([table]) => table).join(',')],
    );
    for (const [table, column] of GUIDES_LZ4_COLUMNS) {
      const compression = columns.find((c) => c.relname === table && c.attname === column)?.compression;
      expect({ table, column, compression }).toEqual({ table, column, compression: lz4 ? 'l' : '' });
    }

    // A snapshot well past the 2 KB at which PostgreSQL compresses a value.
    const guide = await guideWithSteps(1);
    const introduction = Array.from({ length: 200 }, (_, i) => `Remove screw ${i} with the Phillips #00 driver.`).join(' ');
    const edited = await inContext(() => new EditGuide(deps).execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { introduction } }));
    const [row] = await em.fork().execute<{ method: string | null; stored: number; whole: number }[]>(
      'SELECT pg_column_compression(snapshot) AS method, pg_column_size(snapshot) AS stored, octet_length(snapshot::text) AS whole FROM guide_revisions WHERE guide_id = ? AND revisionid = ?',
      [guide.id, edited.state.revisionid],
    );
    expect(row!.method).toBe(lz4 ? 'lz4' : 'pglz');
    expect(row!.stored).toBeLessThan(row!.whole / 2);
    expect((await latestSnapshot(edited)).state.introduction).toBe(introduction);
  });

  it('a guide stored without the steps\' vector (loaded in bulk) is found by its steps, and gets the vector with its first head edit', async () => {
    const guide = await guideWithSteps(2);
    await em.fork().execute('UPDATE guides SET steps_vector = NULL WHERE id = ?', [guide.id]);
    const bulk = await searchOf(guide.id);
    expect(bulk.steps).toBeNull();
    expect(bulk.stored).toBe(bulk.parsed);
    expect(bulk.stored).toContain("'line'");
    await inContext(() => new EditGuide(deps).execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { introduction: 'Before you start' } }));
    const edited = await searchOf(guide.id);
    expect(edited.steps).toContain("'line'");
    expect(edited.stored).toBe(edited.parsed);
  });
});
