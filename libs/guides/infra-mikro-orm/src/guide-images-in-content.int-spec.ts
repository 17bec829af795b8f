import { RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AddStep, CreateGuide, SetGuidePublic, type Editor, type GuideWriteDeps } from '@rc/guides-domain';
import { InMemoryGuideImages } from '@rc/guides-domain/testing';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock } from '@rc/shared-kernel';
import pg from 'pg';
import { guidesMigrations } from './migrations/index.js';
import { GUIDE_VERSIONS_CHANNEL, guidesSchemas, guidesTables } from './schemas/guides.schemas.js';
import { PUBLIC_GUIDE_VERSION_AND_BODY_SQL } from './repositories/guide-version.js';
import { MikroOrmGuideRepository } from './repositories/mikro-orm-guide.repository.js';
import { CatalogCategoryDirectory, MikroOrmGuideEventOutbox } from './repositories/mikro-orm-guide-activity.js';
import { PgGuideImagesInContent } from './repositories/pg-guide-images-in-content.js';

/** No teams: these tests share guides with users only. */
const NO_TEAMS = { teamIdsOf: async () => [], exists: async () => false } as unknown as GuideWriteDeps['teams'];

/** The guides as content showing images, for the media context: which images they use, to whom, and what a change to an image does. */
describe('guides as content showing images (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let deps: GuideWriteDeps;
  let content: PgGuideImagesInContent;
  const author: Editor = { userId: 7, isAdmin: false };
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const line = (text: string) => ({ text, bullet: 'black', level: 0 });

  beforeAll(async () => {
    db = await createTestOrm({ entities: guidesSchemas, migrations: guidesMigrations });
    em = db.orm.em as EntityManager;
    const images = new InMemoryGuideImages();
    images.add(author.userId, 101, 102, 103, 104);
    deps = { guides: new MikroOrmGuideRepository(em), categories: new CatalogCategoryDirectory(em), images, outbox: new MikroOrmGuideEventOutbox(em), events: new RecordingIntegrationEvents(), clock: new SystemClock(), uow: new MikroOrmUnitOfWork(em), teams: NO_TEAMS };
    content = new PgGuideImagesInContent(em);
    await em.fork().execute(`CREATE TABLE wiki_pages (namespace varchar(16), title varchar(255), deleted_at timestamptz)`);
    await em.fork().execute(`INSERT INTO wiki_pages VALUES ('CATEGORY', 'iPhone 12', NULL)`);
  });
  beforeEach(() => db.truncate(guidesTables));
  afterAll(() => db.close());

  /** A private guide showing image 101, whose step shows 102 and 103. */
  async function pictured() {
    const guide = await inContext(() => new CreateGuide(deps).execute({ editor: author, fields: { category: 'iPhone 12', type: 'repair', image: 101 } }));
    return inContext(() => new AddStep(deps).execute({ editor: author, guideId: guide.id, step: { lines: [line('x')], media: { type: 'image', data: [102, 103] } } }));
  }
  const version = async (id: number) => (await em.fork().execute<{ version: string }[]>(PUBLIC_GUIDE_VERSION_AND_BODY_SQL.replace(/\$1/, '?').replace(/\$2/, '?').replace(/\$3/, '?').replace(/\$4/, '?'), [true, 'f', '', id]))[0]?.version;

  it("finds the images of guides' main images and steps, once each", async () => {
    await pictured();
    expect([...(await inContext(() => content.usedAmong([101, 102, 103, 104, 999])))].sort()).toEqual([101, 102, 103]);
  });

  it('shows a private guide’s images to its author and admins only, a public guide’s to everyone', async () => {
    const guide = await pictured();
    const anonymous = { userId: null, isAdmin: false };
    expect(await inContext(() => content.visibleTo(102, anonymous))).toBe(false);
    expect(await inContext(() => content.visibleTo(102, { userId: 7, isAdmin: false }))).toBe(true);
    expect(await inContext(() => content.visibleTo(102, { userId: 8, isAdmin: true }))).toBe(true);
    await inContext(() => new SetGuidePublic(deps).execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: true }));
    expect(await inContext(() => content.visibleTo(101, anonymous))).toBe(true);
    expect(await inContext(() => content.visibleTo(104, anonymous))).toBe(false);
  });

  it('changes the version of the guides showing a changed image, and announces them on the versions channel', async () => {
    const guide = await pictured();
    const published = await inContext(() => new SetGuidePublic(deps).execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, isPublic: true }));
    const other = await inContext(() => new CreateGuide(deps).execute({ editor: author, fields: { category: 'iPhone 12', type: 'repair', image: 104, public: true } }));
    const before = { shown: await version(published.id), other: await version(other.id) };
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(String(n.payload)));
    await listener.query(`LISTEN ${GUIDE_VERSIONS_CHANNEL}`);
    try {
      await inContext(() => content.changed([103]));
      await listener.query('SELECT 1');
      for (let i = 0; i < 50 && !heard.length; i++) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toEqual([String(published.id)]);
    } finally {
      await listener.end();
    }
    expect(await version(published.id)).not.toBe(before.shown);
    expect(await version(other.id)).toBe(before.other);
  });
});
