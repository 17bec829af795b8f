import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CreateWiki, DeleteWiki, EditWiki, InvalidWikiError, RevertWiki, StaleWikiRevisionError, ViewWiki, type WikiDeps, type WikiEditor } from '@rc/catalog-domain';
import { InMemoryWikiImages, WIKI_PORT_SCENARIOS } from '@rc/catalog-domain/testing';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock } from '@rc/shared-kernel';
import { FixedClock, RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { catalogMigrations } from './migrations/index.js';
import { catalogSchemas, catalogTables } from './schemas/catalog.schemas.js';
import { MikroOrmWikiQueries } from './repositories/mikro-orm-wiki-queries.js';
import { MikroOrmWikiRepository, MikroOrmWikiTags } from './repositories/mikro-orm-wiki.repository.js';

describe('catalog persistence (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let deps: WikiDeps;
  const admin: WikiEditor = { userId: 1, isAdmin: true };
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const category = (title: string, parent: string | null = null) =>
    inContext(() => new CreateWiki(deps).execute({ editor: admin, fields: { namespace: 'CATEGORY', title, parent, contents: `About ${title}` } }));

  beforeAll(async () => {
    db = await createTestOrm({ entities: catalogSchemas, migrations: catalogMigrations });
    em = db.orm.em as EntityManager;
    deps = { wikis: new MikroOrmWikiRepository(em), images: new InMemoryWikiImages(), clock: new SystemClock(), uow: new MikroOrmUnitOfWork(em), events: new RecordingIntegrationEvents() };
  });
  beforeEach(() => db.truncate(catalogTables));
  afterAll(() => db.close());

  it('creates every table and column the schemas map', async () => {
    expect(await schemaDrift(db.orm)).toEqual([]);
  });

  it('builds the tree, ancestors (closest first) and children from single queries', async () => {
    await category('Electronics');
    await category('Phone', 'Electronics');
    const iphone = await category('iPhone', 'Phone');
    await category('iPhone 12', 'iPhone');
    const queries = new MikroOrmWikiQueries(em);
    const tree = await inContext(() => queries.categoryTree());
    expect(tree.map((n) => n.title).sort()).toEqual(['Electronics', 'Phone', 'iPhone', 'iPhone 12'].sort());
    expect((await inContext(() => queries.ancestors(iphone.id))).map((a) => a.title)).toEqual(['Phone', 'Electronics']);
    expect((await inContext(() => queries.children(iphone.id))).map((c) => c.title)).toEqual(['iPhone 12']);
    expect((await inContext(() => queries.list('CATEGORY', { limit: 20, offset: 0 }, { leavesOnly: true }))).map((c) => c.title)).toEqual(['iPhone 12']);
  });

  it('refuses moves that would make a cycle and deletes that would orphan children', async () => {
    const root = await category('Root');
    const child = await category('Child', 'Root');
    await category('Grandchild', 'Child');
    await expect(
      inContext(() => new EditWiki(deps).execute({ editor: admin, namespace: 'CATEGORY', title: 'Root', revisionid: root.state.revisionid, fields: { parent: 'Grandchild' } })),
    ).rejects.toBeInstanceOf(InvalidWikiError);
    await expect(inContext(() => new DeleteWiki(deps).execute({ editor: admin, namespace: 'CATEGORY', title: 'Child', revisionid: child.state.revisionid }))).rejects.toBeInstanceOf(
      InvalidWikiError,
    );
  });

  it('keeps every revision and reverts to an old one as a new revision', async () => {
    const page = await category('Revisions');
    const first = page.state.revisionid;
    const edited = await inContext(() => new EditWiki(deps).execute({ editor: admin, namespace: 'CATEGORY', title: 'Revisions', revisionid: first, fields: { contents: 'Second' } }));
    expect(edited.state.revisionid).toBeGreaterThan(first);
    const reverted = await inContext(() =>
      new RevertWiki(deps).execute({ editor: admin, namespace: 'CATEGORY', title: 'Revisions', revisionid: edited.state.revisionid, toRevisionid: first }),
    );
    expect(reverted.state.contents).toBe('About Revisions');
    expect(reverted.state.revisionid).toBeGreaterThan(edited.state.revisionid);
  });

  it('lets exactly one of 20 concurrent edits with one revision win', async () => {
    const page = await category('Contested');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        inContext(() => new EditWiki(deps).execute({ editor: admin, namespace: 'CATEGORY', title: 'Contested', revisionid: page.state.revisionid, fields: { contents: `Edit ${i}` } })),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof StaleWikiRevisionError)).toBe(true);
  });

  // The scenarios the in-memory fakes also run (libs/catalog/domain/src/testing): same expectations.
  describe.each(WIKI_PORT_SCENARIOS.map((sc) => [sc.name, sc] as const))('ports scenario: %s', (_name, scenario) => {
    it('observes what the in-memory fakes observe', async () => {
      const ports = { wikis: new MikroOrmWikiRepository(em), queries: new MikroOrmWikiQueries(em), tags: new MikroOrmWikiTags(em), clock: new FixedClock(), uow: new MikroOrmUnitOfWork(em) };
      expect(await inContext(() => scenario.run(ports))).toEqual(scenario.expected);
    });
  });

  it('keeps related pages per revision, and reads an old snapshot without the field as none', async () => {
    await inContext(() => new CreateWiki(deps).execute({ editor: admin, fields: { namespace: 'WIKI', title: 'Friend' } }));
    const page = await inContext(() => new CreateWiki(deps).execute({ editor: admin, fields: { namespace: 'WIKI', title: 'Linking', related: ['Friend'] } }));
    const cleared = await inContext(() =>
      new EditWiki(deps).execute({ editor: admin, namespace: 'WIKI', title: 'Linking', revisionid: page.state.revisionid, fields: { related: [] } }),
    );
    const [row] = await em.getConnection().execute<{ related: unknown }[]>('SELECT related FROM wiki_pages WHERE id = ?', [page.id]);
    expect(row!.related).toEqual([]);
    const view = new ViewWiki(new MikroOrmWikiRepository(em));
    const old = await inContext(() => view.execute({ namespace: 'WIKI', title: 'Linking', revisionid: page.state.revisionid }));
    expect(old.state.related).toEqual([{ namespace: 'WIKI', title: 'Friend' }]);
    // A revision stored before pages had related pages.
    await em.getConnection().execute(`UPDATE wiki_revisions SET snapshot = snapshot - 'related' WHERE wiki_id = ? AND revisionid = ?`, [page.id, page.state.revisionid]);
    const legacy = await inContext(() => new MikroOrmWikiRepository(em).snapshot(page.id, page.state.revisionid));
    expect(legacy?.related).toEqual([]);
    const reverted = await inContext(() =>
      new RevertWiki(deps).execute({ editor: admin, namespace: 'WIKI', title: 'Linking', revisionid: cleared.state.revisionid, toRevisionid: page.state.revisionid }),
    );
    expect(reverted.state.related).toEqual([]);
  });

  it('refuses related pages that do not exist, and stores nothing', async () => {
    await expect(
      inContext(() => new CreateWiki(deps).execute({ editor: admin, fields: { namespace: 'WIKI', title: 'Dangling', related: ['Nowhere', { namespace: 'CATEGORY', title: 'Gone' }] } })),
    ).rejects.toMatchObject({ violations: [expect.objectContaining({ index: 0 }), expect.objectContaining({ index: 1 })] });
    const [row] = await em.getConnection().execute<{ n: number }[]>(`SELECT count(*)::int AS n FROM wiki_pages WHERE title = 'Dangling'`);
    expect(row!.n).toBe(0);
  });

  it('answers byRefs and contributors in one query each, whatever their size', async () => {
    for (let i = 0; i < 30; i++) await inContext(() => new CreateWiki(deps).execute({ editor: { userId: 100 + i, isAdmin: true }, fields: { namespace: 'ITEM', title: `Item ${i}` } }));
    const page = await inContext(() =>
      new CreateWiki(deps).execute({ editor: admin, fields: { namespace: 'WIKI', title: 'Many', related: Array.from({ length: 30 }, (_, i) => ({ namespace: 'ITEM', title: `Item ${29 - i}` })) } }),
    );
    let current = page;
    for (let i = 0; i < 12; i++) {
      const revisionid = current.state.revisionid;
      current = await inContext(() => new EditWiki(deps).execute({ editor: { userId: 200 + (i % 4), isAdmin: true }, namespace: 'WIKI', title: 'Many', revisionid, fields: { contents: `Edit ${i}` } }));
    }
    const statements: string[] = [];
    const queries = new MikroOrmWikiQueries(em);
    const counting = async <T>(fn: () => Promise<T>) => {
      const connection = em.getConnection();
      const execute = connection.execute.bind(connection);
      connection.execute = ((...args: Parameters<typeof execute>) => {
        statements.push(String(args[0]));
        return execute(...args);
      }) as typeof connection.execute;
      try {
        return await inContext(fn);
      } finally {
        connection.execute = execute;
      }
    };
    const related = await counting(() => queries.byRefs(current.state.related));
    expect(related.map((r) => r.title)).toEqual(Array.from({ length: 30 }, (_, i) => `Item ${29 - i}`));
    const contributors = await counting(() => queries.contributors(page.id, current.state.revisionid));
    expect(contributors.map((c) => [c.userId, c.revisions])).toEqual([
      [1, 1],
      [200, 3],
      [201, 3],
      [202, 3],
      [203, 3],
    ]);
    expect(statements).toHaveLength(2);
  });
});
