import { RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { InMemoryGuideImages } from '@rc/guides-domain/testing';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AddStep, ChangeGuideAccess, CreateGuide, EditGuide, RemoveStep, RevertGuide, type Editor, type Guide, type GuideWriteDeps } from '@rc/guides-domain';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock } from '@rc/shared-kernel';
import { guidesMigrations } from './migrations/index.js';
import { guidesSchemas, guidesTables } from './schemas/guides.schemas.js';
import { MikroOrmGuideRepository } from './repositories/mikro-orm-guide.repository.js';
import { CatalogCategoryDirectory, MikroOrmGuideEventOutbox } from './repositories/mikro-orm-guide-activity.js';

/** Teams 5 and 6 exist; user 9 belongs to team 5. */
const TEAMS = { teamIdsOf: async (id: number) => (id === 9 ? [5] : []), exists: async (id: number) => id === 5 || id === 6 } as unknown as GuideWriteDeps['teams'];

/** Summaries of change, the history, reverts and the access lists, stored in PostgreSQL. */
describe('guide history and access (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let deps: GuideWriteDeps;
  let repo: MikroOrmGuideRepository;
  const author: Editor = { userId: 7, isAdmin: false };
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const line = (text: string) => ({ text, bullet: 'black', level: 0 });

  beforeAll(async () => {
    db = await createTestOrm({ entities: guidesSchemas, migrations: guidesMigrations });
    em = db.orm.em as EntityManager;
    repo = new MikroOrmGuideRepository(em);
    deps = { guides: repo, categories: new CatalogCategoryDirectory(em), images: new InMemoryGuideImages(), outbox: new MikroOrmGuideEventOutbox(em), events: new RecordingIntegrationEvents(), clock: new SystemClock(), uow: new MikroOrmUnitOfWork(em), teams: TEAMS };
    await em.fork().execute(`CREATE TABLE wiki_pages (namespace varchar(16), title varchar(255), deleted_at timestamptz)`);
    await em.fork().execute(`INSERT INTO wiki_pages VALUES ('CATEGORY', 'iPhone 12', NULL)`);
  });
  beforeEach(() => db.truncate(guidesTables));
  afterAll(() => db.close());

  const create = (): Promise<Guide> =>
    inContext(() => new CreateGuide(deps).execute({ editor: author, fields: { category: 'iPhone 12', type: 'replacement' }, summaryOfChange: 'Created' }));
  const load = (guide: Guide) => inContext(async () => (await repo.findById(guide.id))!);

  it('stores each revision with its summary of change and lists them newest first, paged', async () => {
    const guide = await create();
    const withStep = await inContext(() => new AddStep(deps).execute({ editor: author, guideId: guide.id, step: { lines: [line('One')] }, summaryOfChange: 'Step one' }));
    const edited = await inContext(() => new EditGuide(deps).execute({ editor: author, guideId: guide.id, revisionid: withStep.state.revisionid, fields: { title: 'T' } }));
    const all = await inContext(() => repo.revisions(guide.id, { limit: 20, offset: 0 }));
    expect(all.map((r) => [r.revisionid, r.summaryOfChange, r.editorId, r.langid])).toEqual([
      [edited.state.revisionid, null, author.userId, 'en'],
      [withStep.state.revisionid, 'Step one', author.userId, 'en'],
      [guide.state.revisionid, 'Created', author.userId, 'en'],
    ]);
    expect(all[0]!.date).toBeInstanceOf(Date);
    expect((await inContext(() => repo.revisions(guide.id, { limit: 1, offset: 1 }))).map((r) => r.revisionid)).toEqual([withStep.state.revisionid]);
  });

  it('brings a removed step back with its id on a revert, and reads it back', async () => {
    const guide = await create();
    const withStep = await inContext(() => new AddStep(deps).execute({ editor: author, guideId: guide.id, step: { lines: [line('Keep me')] } }));
    const step = withStep.steps[0]!;
    const removed = await inContext(() => new RemoveStep(deps).execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid }));
    expect(removed.steps).toHaveLength(0);
    const reverted = await inContext(() => new RevertGuide(deps).execute({ editor: author, guideId: guide.id, revisionid: removed.state.revisionid, toRevisionid: withStep.state.revisionid }));
    const back = await load(guide);
    expect(back.state.revisionid).toBe(reverted.state.revisionid);
    expect(back.steps.map((s) => [s.id, s.lines[0]!.text])).toEqual([[step.id, 'Keep me']]);
    expect(back.steps[0]!.revisionid).toBeGreaterThan(step.revisionid);
  });

  it('stores collaborators and teams without a revision, and loads them with the guide', async () => {
    const guide = await create();
    const change = (kind: 'user' | 'team', id: number, on: boolean) => inContext(() => new ChangeGuideAccess(repo, TEAMS, deps.uow).execute({ editor: author, guideId: guide.id, kind, id, on }));
    await change('user', 12, true);
    await change('user', 11, true);
    await change('team', 5, true);
    await change('team', 6, true);
    await change('team', 6, false);
    const loaded = await load(guide);
    expect(loaded.access).toEqual({ userIds: [11, 12], teamIds: [5] });
    expect(loaded.state.revisionid).toBe(guide.state.revisionid);
    // A member of team 5 may edit.
    const edited = await inContext(() => new EditGuide(deps).execute({ editor: { userId: 9, isAdmin: false }, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'By the team' } }));
    expect(edited.state.title).toBe('By the team');
    await change('user', 12, false);
    expect((await load(guide)).access.userIds).toEqual([11]);
  });
});
