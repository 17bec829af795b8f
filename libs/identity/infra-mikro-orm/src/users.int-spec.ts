import { InMemoryUserImages } from '@rc/identity-domain/testing';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EditProfile, User, type Email, type UserId, type UserListFilter } from '@rc/identity-domain';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { identityMigrations } from './migrations/index.js';
import { MikroOrmUserRepository, userListSql } from './repositories/mikro-orm-user.repository.js';
import { identitySchemas, identityTables } from './schemas/identity.schemas.js';

describe('user list and profile edits (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  const t0 = new Date('2026-05-01T12:00:00Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  /** Each step runs in its own request context, as an HTTP request would. */
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);

  /** Accounts joined a minute apart (user n at minute n). */
  async function newUsers(count: number): Promise<User[]> {
    return inContext(async () => {
      const users = new MikroOrmUserRepository(em);
      const out: User[] = [];
      for (let n = 1; n <= count; n++) {
        const user = User.register({
          id: await users.nextId(),
          email: `user${n}@example.com` as Email,
          username: `User ${n}`,
          uniqueUsername: `user${n}`,
          passwordHash: 'hash',
          joinedAt: at(n * 60),
        });
        await users.save(user);
        out.push(user);
      }
      return out;
    });
  }

  const disable = (id: number) => em.fork().execute(`UPDATE users SET status = 'disabled' WHERE id = ?`, [id]);
  const list = (filter: UserListFilter, limit = 20, offset = 0) => inContext(() => new MikroOrmUserRepository(em).listActive(filter, { limit, offset }));
  const ids = (users: User[]) => users.map((u) => u.id);

  beforeAll(async () => {
    db = await createTestOrm({ entities: identitySchemas, migrations: identityMigrations });
    em = db.orm.em as EntityManager;
  });
  beforeEach(() => db.truncate(identityTables));
  afterAll(() => db.close());

  describe('findCards', () => {
    it('reads what summaries show of active accounts only, as plain objects, once per id, without joining the identity map', async () => {
      const made = await newUsers(4);
      await disable(made[2]!.id);
      await em.fork().execute('UPDATE users SET image_id = 77 WHERE id = ?', [made[1]!.id]);
      await inContext(async () => {
        const cards = await new MikroOrmUserRepository(em).findCards([made[1]!.id, made[2]!.id, 999 as UserId, made[0]!.id, made[0]!.id]);
        expect(cards.sort((a, b) => a.id - b.id)).toEqual([
          { id: 1, username: 'User 1', uniqueUsername: 'user1', joinedAt: at(60), imageId: null },
          { id: 2, username: 'User 2', uniqueUsername: 'user2', joinedAt: at(120), imageId: 77 },
        ]);
        expect(cards[0]!.joinedAt).toBeInstanceOf(Date);
        expect(cards[0]).not.toBeInstanceOf(User);
        expect(em.getUnitOfWork().getIdentityMap().values()).toHaveLength(0);
        expect(await new MikroOrmUserRepository(em).findCards([])).toEqual([]);
      });
    });
  });

  describe('listActive', () => {
    it('lists active accounts by id, either way, as complete User instances', async () => {
      const made = await newUsers(5);
      await disable(made[1]!.id);
      const asc = await list({ order: 'ASC' });
      expect(ids(asc)).toEqual([1, 3, 4, 5]);
      expect(asc[0]).toBeInstanceOf(User);
      expect({ ...asc[0] }).toEqual({ ...made[0] });
      expect(asc[0]!.joinedAt).toEqual(at(60));
      expect(ids(await list({ order: 'DESC' }))).toEqual([5, 4, 3, 1]);
    });

    it('pages with limit and offset', async () => {
      await newUsers(5);
      expect(ids(await list({ order: 'ASC' }, 2, 0))).toEqual([1, 2]);
      expect(ids(await list({ order: 'ASC' }, 2, 2))).toEqual([3, 4]);
      expect(ids(await list({ order: 'DESC' }, 2, 4))).toEqual([1]);
      expect(await list({ order: 'ASC' }, 2, 5)).toEqual([]);
    });

    it('keeps accounts joined at joinedSince or later', async () => {
      await newUsers(5);
      expect(ids(await list({ order: 'ASC', joinedSince: at(3 * 60) }))).toEqual([3, 4, 5]);
      expect(ids(await list({ order: 'DESC', joinedSince: at(3 * 60 + 1) }))).toEqual([5, 4]);
      expect(await list({ order: 'ASC', joinedSince: at(3600) })).toEqual([]);
    });

    it('is served by the partial index in id order, without a sort, whatever the direction', async () => {
      await em.fork().execute(`
        INSERT INTO users (id, email, username, unique_username, password_hash, role, status, joined_at, about, langid)
        SELECT n, 'bulk' || n || '@example.com', 'Bulk ' || n, 'bulk' || n, 'hash', 'User',
               CASE WHEN n % 3 = 0 THEN 'disabled' ELSE 'active' END, timestamptz '2026-01-01' + n * interval '1 minute', '', 'en'
        FROM generate_series(1, 20000) AS n`);
      await em.fork().execute('ANALYZE users');
      const plans: string[] = [];
      for (const [filter, params] of [
        [{ order: 'ASC' }, [20, 980]],
        [{ order: 'DESC' }, [200, 1000]],
        [{ order: 'ASC', joinedSince: new Date('2026-01-01') }, [new Date('2026-01-01'), 20, 0]],
      ] as [UserListFilter, unknown[]][]) {
        const rows = await em.fork().execute<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (FORMAT JSON) ${userListSql(filter)}`, params);
        plans.push(JSON.stringify(rows[0]!['QUERY PLAN']));
      }
      for (const plan of plans) {
        expect(plan).toContain('"Index Name":"users_active_id_idx"');
        expect(plan).not.toContain('"Node Type":"Sort"');
      }
    });
  });

  describe('profile edits under a row lock', () => {
    const uow = () => new MikroOrmUnitOfWork(em);

    /** A repository whose save waits for `release` inside the transaction: the row stays locked meanwhile. */
    function holdingRepository() {
      let release!: () => void;
      let saved!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const hasSaved = new Promise<void>((resolve) => (saved = resolve));
      class Holding extends MikroOrmUserRepository {
        override async save(user: User): Promise<void> {
          await super.save(user);
          saved();
          await released;
        }
      }
      return { repository: new Holding(em), release, hasSaved };
    }

    /** Waits until some session waits for a row lock on this database. */
    async function someoneWaitsForALock(): Promise<void> {
      for (let i = 0; i < 200; i++) {
        const [row] = await em.fork().execute<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (row!.n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('No session ever waited for the lock');
    }

    const stored = (id: UserId) => inContext(() => new MikroOrmUserRepository(em).findById(id));

    it('runs two edits of different fields one after the other: neither loses the other', async () => {
      const [user] = await newUsers(1);
      const first = holdingRepository();
      const a = inContext(() => new EditProfile(first.repository, uow(), new InMemoryUserImages()).execute({ userId: user!.id, edit: { about: 'About A', summary: 'Summary A' } }));
      await first.hasSaved;
      const b = inContext(() => new EditProfile(new MikroOrmUserRepository(em), uow(), new InMemoryUserImages()).execute({ userId: user!.id, edit: { summary: 'Summary B', location: 'Lyon' } }));
      await someoneWaitsForALock();
      first.release();
      const [afterA, afterB] = await Promise.all([a, b]);
      expect(afterA).toMatchObject({ about: 'About A', summary: 'Summary A', location: null });
      // B read the account only once A had committed.
      expect(afterB).toMatchObject({ about: 'About A', summary: 'Summary B', location: 'Lyon' });
      expect(await stored(user!.id)).toMatchObject({ about: 'About A', summary: 'Summary B', location: 'Lyon', username: 'User 1' });
    });

    it('lets the later edit win even when it sets back the value it would have read before the earlier one', async () => {
      const [user] = await newUsers(1);
      await inContext(() => new EditProfile(new MikroOrmUserRepository(em), uow(), new InMemoryUserImages()).execute({ userId: user!.id, edit: { about: 'x' } }));
      const first = holdingRepository();
      const a = inContext(() => new EditProfile(first.repository, uow(), new InMemoryUserImages()).execute({ userId: user!.id, edit: { about: 'y' } }));
      await first.hasSaved;
      // Without the lock, B would read 'x', see nothing to change, write nothing and answer 'x' while 'y' stays stored.
      const b = inContext(() => new EditProfile(new MikroOrmUserRepository(em), uow(), new InMemoryUserImages()).execute({ userId: user!.id, edit: { about: 'x' } }));
      await someoneWaitsForALock();
      first.release();
      const [, afterB] = await Promise.all([a, b]);
      expect(afterB.about).toBe('x');
      expect((await stored(user!.id))!.about).toBe('x');
    });

    it('reads the stored state under the lock even when the request read the account before', async () => {
      const [user] = await newUsers(1);
      await inContext(async () => {
        const users = new MikroOrmUserRepository(em);
        const early = (await users.findById(user!.id))!;
        expect(early.about).toBe('');
        await em.fork().execute(`UPDATE users SET about = 'changed elsewhere' WHERE id = ?`, [user!.id]);
        const locked = await uow().run(() => users.findByIdForUpdate(user!.id));
        expect(locked!.about).toBe('changed elsewhere');
      });
    });

    it('refuses to lock outside a transaction', async () => {
      const [user] = await newUsers(1);
      await expect(inContext(() => new MikroOrmUserRepository(em).findByIdForUpdate(user!.id))).rejects.toThrow();
    });
  });
});
