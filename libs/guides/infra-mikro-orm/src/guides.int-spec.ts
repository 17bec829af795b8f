import { RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { InMemoryGuideImages } from '@rc/guides-domain/testing';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CreateGuide,
  EditGuide,
  StaleGuideRevisionError,
  type Editor,
  type GuideId,
  type GuideWriteDeps,
} from '@rc/guides-domain';
import { MikroOrmUnitOfWork, ormConfig } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock, ViewCounter } from '@rc/shared-kernel';
import { guidesMigrations } from './migrations/index.js';
import { guidesSchemas, guidesTables } from './schemas/guides.schemas.js';
import { MikroOrmGuideRepository } from './repositories/mikro-orm-guide.repository.js';
import { CatalogCategoryDirectory, MikroOrmGuideEventOutbox, MikroOrmGuideMarks } from './repositories/mikro-orm-guide-activity.js';
import { MikroOrmGuideQueries } from './repositories/mikro-orm-guide-queries.js';
import { MikroOrmGuideViewTally } from './repositories/guide-view-tally.js';
import { GUIDE_DISCUSSION_CHANGED_SQL } from './repositories/guide-discussion.js';

/** No teams: these tests share guides with users only. */
const NO_TEAMS = { teamIdsOf: async () => [], exists: async () => false } as unknown as GuideWriteDeps['teams'];

describe('guides persistence (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let deps: GuideWriteDeps;
  const author: Editor = { userId: 7, isAdmin: false };
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const line = (text: string, level = 0) => ({ text, bullet: 'black', level });

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
    // The catalog context owns wiki_pages; the guides context only reads category titles from it,
    // so this test makes just the columns that read uses (the contexts share data, not code).
    await em.fork().execute(`CREATE TABLE wiki_pages (namespace varchar(16), title varchar(255), deleted_at timestamptz)`);
    await em.fork().execute(`INSERT INTO wiki_pages VALUES ('CATEGORY', 'iPhone 12', NULL), ('CATEGORY', 'Gone', now())`);
  });
  beforeEach(() => db.truncate(guidesTables));
  afterAll(() => db.close());

  const create = (fields: Record<string, unknown> = {}) =>
    inContext(() => new CreateGuide(deps).execute({ editor: author, fields: { category: 'iPhone 12', type: 'replacement', subject: 'Battery', ...fields } }));

  it('creates every table and column the schemas map', async () => {
    expect(await schemaDrift(db.orm)).toEqual([]);
  });

  it('round-trips a guide with parts and steps, and keeps a snapshot of each revision', async () => {
    const created = await create({ parts: [{ name: 'Battery', quantity: 1 }], flags: ['GUIDE_IN_PROGRESS'], prerequisites: [] });
    const repo = new MikroOrmGuideRepository(em);
    const withStep = await inContext(() =>
      deps.uow.run(async () => {
        const g = (await repo.findForUpdate(created.id))!;
        g.addStep(author, { lines: [line('Heat the screen.'), line('Carefully.', 1)] }, new Date());
        await repo.save(g);
        return g;
      }),
    );
    expect(withStep.state.revisionid).toBeGreaterThan(created.state.revisionid);
    const step = withStep.steps[0]!;
    expect(step.id).toBeGreaterThan(0);
    expect(step.revisionid).toBeGreaterThan(created.state.revisionid);
    expect(step.revisionid).toBeLessThan(withStep.state.revisionid);

    const loaded = (await inContext(() => repo.findById(created.id)))!;
    expect(loaded.state).toEqual(withStep.state);
    expect(loaded.steps.map((s) => s.toState())).toEqual(withStep.steps.map((s) => s.toState()));

    const first = await inContext(() => repo.snapshot(created.id, created.state.revisionid));
    expect(first!.state.title).toBe('iPhone 12 Battery Replacement');
    expect(first!.steps).toEqual([]);
    expect(first!.state.createdAt).toEqual(created.state.createdAt);
  });

  it('refuses a stale revision and lets exactly one of 20 concurrent edits win', async () => {
    const guide = await create();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        inContext(() => new EditGuide(deps).execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: `Edit ${i}` } })),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.every((r) => (r as PromiseRejectedResult).reason instanceof StaleGuideRevisionError)).toBe(true);
    const stored = (await inContext(() => new MikroOrmGuideRepository(em).findById(guide.id)))!;
    expect(stored.state.title).toBe((won[0] as PromiseFulfilledResult<{ state: { title: string } }>).value.state.title);
  });

  it('knows missing guides, prerequisite cycles and dependents', async () => {
    const a = await create({ title: 'A' });
    const b = await create({ title: 'B', prerequisites: [a.id] });
    const c = await create({ title: 'C', prerequisites: [b.id] });
    const repo = new MikroOrmGuideRepository(em);
    expect(await inContext(() => repo.missing([a.id, 999_999]))).toEqual([999_999]);
    expect(await inContext(() => repo.wouldCycle(a.id, [c.id]))).toBe(true);
    expect(await inContext(() => repo.wouldCycle(c.id, [a.id]))).toBe(false);
    expect(await inContext(() => repo.dependents(a.id))).toEqual([b.id]);
  });

  it('lists public guides only, pages them, and reads marks in one query', async () => {
    const pub = await create({ title: 'Public one', public: true });
    await create({ title: 'Private one' });
    const queries = new MikroOrmGuideQueries(em);
    const listed = await inContext(() => queries.list({ order: 'ASC' }, { limit: 20, offset: 0 }));
    expect(listed.map((g) => g.title)).toEqual(['Public one']);
    expect(await inContext(() => queries.list({ order: 'ASC', types: ['teardown'] }, { limit: 20, offset: 0 }))).toEqual([]);
    await inContext(() => new MikroOrmGuideMarks(em).add('favorite', 3, pub.id, new Date()));
    expect(await inContext(() => new MikroOrmGuideMarks(em).add('favorite', 3, pub.id, new Date()))).toBe(false);
    const marks = await inContext(() => queries.marksOf(3, [pub.id]));
    expect([...marks.favorited]).toEqual([pub.id]);
    expect([...marks.completed]).toEqual([]);
    expect((await inContext(() => queries.marked('favorite', 3, { limit: 20, offset: 0 }, null))).map((m) => m.guide.guideid)).toEqual([pub.id as GuideId]);
  });

  it("reads a category page's guides and items in one statement, as the list and the items query read them", async () => {
    await create({ title: 'First', public: true, parts: [{ text: 'Battery', quantity: 2 }, { text: 'Screw', quantity: 4 }], tools: [{ text: 'Spudger' }] });
    await create({ title: 'Hidden', parts: [{ text: 'Secret part' }] });
    await create({ title: 'Second', public: true, parts: [{ text: 'battery ', quantity: 1 }], tools: [{ text: 'Spudger' }, { text: 'Tweezers' }] });
    await create({ title: 'Third', public: true });
    const queries = new MikroOrmGuideQueries(em);
    for (const limit of [1, 200]) {
      const together = await inContext(() => queries.categoryGuides('iPhone 12', limit));
      const guides = await inContext(() => queries.list({ order: 'ASC', category: 'iPhone 12', withPrerequisiteOnly: true }, { limit, offset: 0 }));
      expect(together).toEqual({ guides, items: await inContext(() => queries.categoryItems('iPhone 12')) });
    }
    const all = await inContext(() => queries.categoryGuides('iPhone 12', 200));
    expect(all.guides.map((g) => g.title)).toEqual(['First', 'Second', 'Third']);
    expect(all.items.parts.map((p) => [p.text, p.guides, p.quantity])).toEqual([
      ['Battery', 2, 2],
      ['Screw', 1, 4],
    ]);
    expect(all.items.tools.map((t) => [t.text, t.guides])).toEqual([
      ['Spudger', 2],
      ['Tweezers', 1],
    ]);
    expect(await inContext(() => queries.categoryGuides('Nothing here', 200))).toEqual({ guides: [], items: { parts: [], tools: [] } });
  });

  it('reads category titles from the catalog data: live CATEGORY pages only', async () => {
    const categories = new CatalogCategoryDirectory(em);
    expect(await inContext(() => categories.exists('iPhone 12'))).toBe(true);
    expect(await inContext(() => categories.exists('Gone'))).toBe(false);
    expect(await inContext(() => categories.exists('iphone 12'))).toBe(false);
  });

  it('writes events to the outbox in the same transaction as the change', async () => {
    await create({ public: true });
    const rows = await em.fork().execute<{ type: string }[]>('SELECT type FROM guide_events_outbox');
    expect(rows.map((r) => r.type)).toEqual(['GuidePublished']);
  });

  it('keeps the counts: marks by trigger, views added by flushes (any instance, any order), read with the guide in its one statement', async () => {
    const guide = await create({ public: true });
    const marks = new MikroOrmGuideMarks(em);
    await inContext(() => marks.add('favorite', 8, guide.id, new Date()));
    await inContext(() => marks.add('favorite', 9, guide.id, new Date()));
    await inContext(() => marks.add('completion', 8, guide.id, new Date()));
    await inContext(() => marks.remove('favorite', 9, guide.id));
    const tally = new MikroOrmGuideViewTally(em);
    const here = new ViewCounter(tally);
    const there = new ViewCounter(tally);
    here.record(guide.id, 3);
    there.record(guide.id, 4);
    here.record(999_999); // no such guide: skipped
    await Promise.all([here.flush(), there.flush()]);
    expect(Math.max(here.known(guide.id)!, there.known(guide.id)!)).toBe(7);
    expect(here.known(999_999)).toBeUndefined();
    const read = (await inContext(() => new MikroOrmGuideRepository(em).findById(guide.id)))!;
    expect(read.statistics).toEqual({ views: 7, favorites: 1, completions: 1, contributors: [{ userId: author.userId, revisions: 1, firstRevisionid: guide.state.revisionid }], translators: [], discussed: false });
  });

  it('reads with a guide whether its discussion stamp ever moved (locked or not, one or many)', async () => {
    const guide = await create({ public: true });
    const other = await create({ public: true });
    const repo = () => new MikroOrmGuideRepository(em);
    const discussed = async () => [
      (await inContext(() => repo().findById(guide.id)))!.statistics.discussed,
      ...(await inContext(() => repo().findMany([guide.id, other.id]))).sort((a, b) => a.id - b.id).map((g) => g.statistics.discussed),
      (await inContext(() => new MikroOrmUnitOfWork(em).run(async () => (await repo().findForUpdate(guide.id))!)))!.statistics.discussed,
    ];
    expect(await discussed()).toEqual([false, false, false, false]);
    await em.fork().execute(GUIDE_DISCUSSION_CHANGED_SQL, [guide.id]);
    expect(await discussed()).toEqual([true, true, false, true]);
  });
});

describe('guide stats migration', () => {
  it('gives every guide stored before it a row of counts, its favourites and completions counted from its marks', async () => {
    const db = await createTestOrm({ entities: guidesSchemas, migrations: guidesMigrations.filter((m) => m.name < '20261128100000-guide-stats') });
    const em = db.orm.em.fork();
    // Guide 1: two favourites and a completion; guide 2: a completion; guide 3 (private): a favourite; guide 4: nothing.
    // Loaded with the guides' triggers off, as a bulk load would (their bodies are today's, for columns added later).
    await em.execute('ALTER TABLE guides DISABLE TRIGGER USER');
    await em.execute(`INSERT INTO guides (id, revisionid, author_id, contributor_ids, title, category, subject, type, difficulty, summary, introduction, conclusion,
        time_required_min, time_required_max, image_id, parts, tools, prerequisites, flags, is_public, locale, created_at, modified_at, published_at, deleted_at)
      SELECT n, 1, 7, '{}', 'Guide ' || n, 'Door', '', 'repair', NULL, '', '', '', 0, 0, NULL, '[]', '[]', '{}', '{}', n <> 3, 'en', now(), now(), now(), NULL
        FROM generate_series(1, 4) AS n`);
    await em.execute(`INSERT INTO guide_marks (kind, user_id, guide_id, created_at) VALUES
      ('favorite', 10, 1, now()), ('favorite', 11, 1, now()), ('completion', 10, 1, now()), ('completion', 12, 2, now()), ('favorite', 10, 3, now())`);
    await em.execute('ALTER TABLE guides ENABLE TRIGGER USER');
    const orm = await MikroORM.init(ormConfig({ clientUrl: db.url, entities: guidesSchemas, migrations: guidesMigrations }));
    try {
      await orm.migrator.up();
      const rows = await orm.em.fork().execute('SELECT guide_id, views, favorites_count, completions_count FROM guide_stats ORDER BY guide_id');
      expect(rows).toEqual([
        { guide_id: 1, views: '0', favorites_count: 2, completions_count: 1 },
        { guide_id: 2, views: '0', favorites_count: 0, completions_count: 1 },
        { guide_id: 3, views: '0', favorites_count: 1, completions_count: 0 },
        { guide_id: 4, views: '0', favorites_count: 0, completions_count: 0 },
      ]);
    } finally {
      await orm.close(true);
      await db.close();
    }
  });
});
