import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { GuideEvent } from '@rc/guides-contracts';
import { HandleGuideEvent, POINTS } from '@rc/reputation-domain';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock } from '@rc/shared-kernel';
import { RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { reputationMigrations } from './migrations/index.js';
import { MikroOrmBadgeCatalogue, MikroOrmReputationQueries, MikroOrmReputationStore } from './repositories/mikro-orm-reputation.js';
import { reputationSchemas, reputationTables } from './schemas/reputation.schemas.js';

describe('reputation persistence (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let store: MikroOrmReputationStore;
  let queries: MikroOrmReputationQueries;
  let handle: HandleGuideEvent;
  let uow: MikroOrmUnitOfWork;
  let eventId = 1;
  let at = 1_700_000_000;
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const deliver = (event: GuideEvent, id = String(eventId++)) => inContext(() => uow.run(() => handle.execute(id, event)));
  const published = (guideId: number, authorId: number, guideType = 'replacement'): GuideEvent => ({ type: 'GuidePublished', guideId, authorId, guideType, at: at++ });
  const completed = (guideId: number, authorId: number, userId: number): GuideEvent => ({ type: 'GuideCompleted', guideId, authorId, userId, at: at++ });

  beforeAll(async () => {
    db = await createTestOrm({ entities: reputationSchemas, migrations: reputationMigrations });
    em = db.orm.em as EntityManager;
    store = new MikroOrmReputationStore(em);
    queries = new MikroOrmReputationQueries(em);
    uow = new MikroOrmUnitOfWork(em);
    handle = new HandleGuideEvent(store, new MikroOrmBadgeCatalogue(em), new SystemClock(), new RecordingIntegrationEvents());
  });
  beforeEach(() => db.truncate(reputationTables));
  afterAll(() => db.close());

  it('creates every table and column the schemas map', async () => {
    expect(await schemaDrift(db.orm)).toEqual([]);
  });

  it('seeds the catalogue: twelve enabled badges with rules, two disabled without', async () => {
    const catalogue = await inContext(() => queries.catalogue());
    expect(catalogue).toHaveLength(12);
    expect(catalogue.every((b) => b.badge.rule !== null && b.numUsers === 0)).toBe(true);
    const [row] = await em.fork().execute<{ disabled: number }[]>('SELECT count(*)::int AS disabled FROM badges WHERE NOT enabled AND rule_metric IS NULL');
    expect(row!.disabled).toBe(2);
  });

  it('claims an event id once, sets a fact once, awards once', async () => {
    await inContext(async () => {
      expect(await store.claimEvent('5', new Date())).toBe(true);
      expect(await store.claimEvent('5', new Date())).toBe(false);
      const fact = { userId: 1, kind: 'published' as const, guideId: 9, otherUserId: 0 };
      expect(await store.setFact(fact, true, new Date())).toBe(true);
      expect(await store.setFact(fact, true, new Date())).toBe(false);
      expect(await store.setFact(fact, false, new Date())).toBe(true);
      expect(await store.setFact(fact, false, new Date())).toBe(false);
      expect(await store.award(1, 1, '', new Date())).toBe(true);
      expect(await store.award(1, 1, '', new Date())).toBe(false);
      expect(await store.award(1, 7, 'guide:9', new Date())).toBe(true);
      expect(await store.award(1, 7, 'guide:10', new Date())).toBe(true);
    });
  });

  it('moves totals with the ledger and computes metrics per user and guide', async () => {
    await deliver(published(10, 1));
    await deliver(published(11, 1, 'teardown'));
    await deliver(completed(10, 1, 2));
    await deliver(completed(10, 1, 1));
    const metrics = await inContext(() => store.metrics(1, 10));
    expect(metrics).toEqual({
      guides_published: 2,
      teardowns_published: 1,
      guides_completed: 1,
      reputation: 2 * POINTS.guidePublished + POINTS.guideCompleted + 4 * POINTS.badge.bronze, // Author, Teardown, Helpful Guide, Fixer
      guide: { id: 10, guide_completions: 1, guide_favorites: 0 },
    });
    expect(await inContext(() => queries.audit())).toEqual([]);
  });

  it('skips a replayed event id and lets nothing through twice', async () => {
    await deliver(published(10, 1), '100');
    const before = await em.fork().execute<{ n: number }[]>('SELECT count(*)::int AS n FROM reputation_ledger');
    await deliver(published(10, 1), '100');
    await deliver(published(10, 1), '101');
    const after = await em.fork().execute<{ n: number }[]>('SELECT count(*)::int AS n FROM reputation_ledger');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('reports standings for many users in one query, and lists badges earned first', async () => {
    await deliver(published(10, 1));
    await deliver(completed(10, 1, 2));
    const standings = await inContext(() => queries.standings([1, 2, 3]));
    expect(standings.get(1)).toEqual({ reputation: POINTS.guidePublished + POINTS.guideCompleted + 2 * POINTS.badge.bronze, badgeCounts: { bronze: 2, silver: 0, gold: 0, total: 2 } });
    expect(standings.get(2)).toEqual({ reputation: POINTS.badge.bronze, badgeCounts: { bronze: 1, silver: 0, gold: 0, total: 1 } });
    expect(standings.has(3)).toBe(false);

    const list = await inContext(() => queries.badgeList(1, null));
    expect(list).toHaveLength(12);
    expect(list.slice(0, 2).map((e) => [e.badge.name, e.earned, e.timesEarned])).toEqual([
      ['Helpful Guide', true, 1],
      ['Author', true, 1],
    ]);
    expect(list.slice(2).map((e) => e.badge.id)).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]);
    expect(list.find((e) => e.badge.name === 'Fixer')!.numUsers).toBe(1);
    const general = await inContext(() => queries.badgeList(2, 'badgeGeneral'));
    expect(general.map((e) => [e.badge.name, e.earned])).toEqual([
      ['Fixer', true],
      ['Repair Veteran', false],
      ['Established', false],
      ['Trusted', false],
      ['Luminary', false],
    ]);
  });

  it('finds totals that drifted from the ledger', async () => {
    await deliver(published(10, 1));
    await em.fork().execute('UPDATE reputation_totals SET points = points + 7 WHERE user_id = 1');
    expect(await inContext(() => queries.audit())).toEqual([{ userId: 1, total: POINTS.guidePublished + POINTS.badge.bronze + 7, ledger: POINTS.guidePublished + POINTS.badge.bronze }]);
  });
});
