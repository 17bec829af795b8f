import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CreateWiki, DeleteWiki, EditWiki, InvalidWikiError, RevertWiki, StaleWikiRevisionError, type WikiDeps, type WikiEditor } from '@rc/catalog-domain';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock } from '@rc/shared-kernel';
import { catalogMigrations } from './migrations/index.js';
import { catalogSchemas, catalogTables } from './schemas/catalog.schemas.js';
import { MikroOrmWikiQueries } from './repositories/mikro-orm-wiki-queries.js';
import { MikroOrmWikiRepository } from './repositories/mikro-orm-wiki.repository.js';

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
    deps = { wikis: new MikroOrmWikiRepository(em), clock: new SystemClock(), uow: new MikroOrmUnitOfWork(em) };
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
});
