import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InvalidAccountDataError, User, type Email } from '@rc/identity-domain';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { identityMigrations } from './migrations/index.js';
import { identitySchemas, identityTables } from './schemas/identity.schemas.js';
import { MikroOrmUserRepository } from './repositories/mikro-orm-user.repository.js';
import { MikroOrmAuthTokenRepository } from './repositories/mikro-orm-auth-token.repository.js';
import { MikroOrmPasswordResetRepository } from './repositories/mikro-orm-password-reset.repository.js';
import { MikroOrmAttemptLog } from './repositories/mikro-orm-attempt-log.js';
import { MikroOrmAppRegistry } from './repositories/mikro-orm-app-registry.js';
import { CryptoSecrets } from './adapters/crypto-secrets.js';
import { Argon2PasswordHasher, defaultHashingBounds } from './adapters/argon2-password-hasher.js';
import { availableParallelism } from 'node:os';

describe('identity repositories (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  const t0 = new Date('2026-05-01T12:00:00Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  /** Each step runs in its own request context, as an HTTP request would. */
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);

  async function newUser(n: number, overrides: Partial<{ email: string; uniqueUsername: string }> = {}): Promise<User> {
    const users = new MikroOrmUserRepository(em);
    const user = User.register({
      id: await users.nextId(),
      email: (overrides.email ?? `user${n}@example.com`) as Email,
      username: `User ${n}`,
      uniqueUsername: overrides.uniqueUsername ?? `user${n}`,
      passwordHash: 'hash',
      joinedAt: t0,
    });
    await users.save(user);
    return user;
  }

  beforeAll(async () => {
    db = await createTestOrm({ entities: identitySchemas, migrations: identityMigrations });
    em = db.orm.em as EntityManager;
  });
  beforeEach(() => db.truncate(identityTables));
  afterAll(() => db.close());

  it('round-trips a user through save, a fresh context and findById/findByEmail', async () => {
    const saved = await inContext(() => newUser(1));
    await inContext(async () => {
      const users = new MikroOrmUserRepository(em);
      const byId = await users.findById(saved.id);
      expect(byId).toBeInstanceOf(User);
      expect({ ...byId }).toEqual({ ...saved });
      expect(byId!.isActive).toBe(true);
      expect((await users.findByEmail('user1@example.com' as Email))!.id).toBe(saved.id);
      expect(await users.findByEmail('nobody@example.com' as Email)).toBeNull();
    });
  });

  it('persists changes made through the aggregate', async () => {
    const saved = await inContext(() => newUser(1));
    await inContext(async () => {
      const users = new MikroOrmUserRepository(em);
      const user = (await users.findById(saved.id))!;
      user.assignRole('Admin');
      user.changePassword('new-hash');
      await users.save(user);
    });
    const reloaded = await inContext(() => new MikroOrmUserRepository(em).findById(saved.id));
    expect(reloaded!.role).toBe('Admin');
    expect(reloaded!.passwordHash).toBe('new-hash');
  });

  it('reports taken emails and unique usernames case-insensitively', async () => {
    await inContext(() => newUser(1, { uniqueUsername: 'MixedCase' }));
    const taken = await inContext(() => new MikroOrmUserRepository(em).findTaken('user1@example.com' as Email, 'mixedcase'));
    expect(taken).toEqual({ email: true, uniqueUsername: true });
    const free = await inContext(() => new MikroOrmUserRepository(em).findTaken('x@example.com' as Email, 'other'));
    expect(free).toEqual({ email: false, uniqueUsername: false });
  });

  it('turns a duplicate that slipped past the check into a rule violation naming the field', async () => {
    await inContext(() => newUser(1));
    await expect(inContext(() => newUser(2, { email: 'user1@example.com' }))).rejects.toMatchObject({
      constructor: InvalidAccountDataError,
      violations: [expect.objectContaining({ field: 'email' })],
    });
    await expect(inContext(() => newUser(3, { uniqueUsername: 'USER1' }))).rejects.toMatchObject({
      violations: [expect.objectContaining({ field: 'unique_username' })],
    });
  });

  it('rolls back every write of a failed unit of work', async () => {
    await expect(
      inContext(() =>
        new MikroOrmUnitOfWork(em).run(async () => {
          await newUser(1);
          throw new Error('boom');
        }),
      ),
    ).rejects.toThrow('boom');
    const [row] = await em.fork().execute<{ n: number }[]>('SELECT count(*)::int AS n FROM users');
    expect(row!.n).toBe(0);
  });

  describe('auth tokens', () => {
    it('finds the owner of a live token only, and forgets removed ones', async () => {
      const user = await inContext(() => newUser(1));
      const tokens = new MikroOrmAuthTokenRepository(em);
      await inContext(() => tokens.add({ digest: 'a'.repeat(64), userId: user.id, createdAt: t0, expiresAt: at(60) }));
      expect(await inContext(() => tokens.findOwner('a'.repeat(64), at(30)))).toEqual({ userId: user.id, role: 'User' });
      expect(await inContext(() => tokens.findOwner('a'.repeat(64), at(60)))).toBeNull();
      expect(await inContext(() => tokens.findOwner('b'.repeat(64), at(30)))).toBeNull();
      await inContext(() => tokens.remove('a'.repeat(64)));
      expect(await inContext(() => tokens.findOwner('a'.repeat(64), at(30)))).toBeNull();
    });

    it('does not authenticate a disabled account', async () => {
      const user = await inContext(() => newUser(1));
      const tokens = new MikroOrmAuthTokenRepository(em);
      await inContext(() => tokens.add({ digest: 'c'.repeat(64), userId: user.id, createdAt: t0, expiresAt: at(60) }));
      await em.fork().execute(`UPDATE users SET status = 'disabled' WHERE id = ?`, [user.id]);
      expect(await inContext(() => tokens.findOwner('c'.repeat(64), at(1)))).toBeNull();
    });

    it('keeps a user to the newest tokens and drops expired ones, leaving other users alone', async () => {
      const [alice, bob] = await inContext(async () => [await newUser(1), await newUser(2)]);
      const tokens = new MikroOrmAuthTokenRepository(em);
      await inContext(async () => {
        for (let i = 0; i < 4; i++) await tokens.add({ digest: `${i}`.repeat(64), userId: alice.id, createdAt: at(i), expiresAt: at(i === 0 ? 10 : 1000) });
        await tokens.add({ digest: 'f'.repeat(64), userId: bob.id, createdAt: t0, expiresAt: at(1000) });
        await tokens.add({ digest: '4'.repeat(64), userId: alice.id, createdAt: at(20), expiresAt: at(1000) }, 3);
      });
      const rows = await em.fork().execute<{ digest: string }[]>('SELECT digest FROM auth_tokens ORDER BY digest');
      expect(rows.map((r) => r.digest[0])).toEqual(['2', '3', '4', 'f']);
    });

    it('never leaves more than keepNewest tokens, however many are added at once', async () => {
      const user = await inContext(() => newUser(1));
      const tokens = new MikroOrmAuthTokenRepository(em);
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          inContext(() => tokens.add({ digest: i.toString(16).padStart(64, '0'), userId: user.id, createdAt: at(i % 3), expiresAt: at(1000) }, 2)),
        ),
      );
      const [row] = await em.fork().execute<{ n: number }[]>('SELECT count(*)::int AS n FROM auth_tokens WHERE user_id = ?', [user.id]);
      expect(row!.n).toBe(2);
    });

    it('issues no token to a user that does not exist, and writes nothing', async () => {
      const tokens = new MikroOrmAuthTokenRepository(em);
      await expect(inContext(() => tokens.add({ digest: '9'.repeat(64), userId: 424242 as User['id'], createdAt: t0, expiresAt: at(60) }, 2))).rejects.toThrow('no user 424242');
      const [row] = await em.fork().execute<{ n: number }[]>('SELECT count(*)::int AS n FROM auth_tokens');
      expect(row!.n).toBe(0);
    });

    it('issues a token with the cap in one statement, and inside a unit of work, in its transaction', async () => {
      const user = await inContext(() => newUser(1));
      const tokens = new MikroOrmAuthTokenRepository(em);
      await expect(
        inContext(() =>
          new MikroOrmUnitOfWork(em).run(async () => {
            await tokens.add({ digest: '7'.repeat(64), userId: user.id, createdAt: t0, expiresAt: at(60) }, 2);
            throw new Error('rolled back');
          }),
        ),
      ).rejects.toThrow('rolled back');
      expect(await inContext(() => tokens.findOwner('7'.repeat(64), at(1)))).toBeNull();
      await inContext(() => tokens.add({ digest: '8'.repeat(64), userId: user.id, createdAt: t0, expiresAt: at(60) }, 2));
      expect(await inContext(() => tokens.findOwner('8'.repeat(64), at(1)))).toEqual({ userId: user.id, role: 'User' });
    });

    it('removes all tokens of a user', async () => {
      const user = await inContext(() => newUser(1));
      const tokens = new MikroOrmAuthTokenRepository(em);
      await inContext(async () => {
        await tokens.add({ digest: 'd'.repeat(64), userId: user.id, createdAt: t0, expiresAt: at(60) });
        await tokens.add({ digest: 'e'.repeat(64), userId: user.id, createdAt: t0, expiresAt: at(60) });
        await tokens.removeAllOf(user.id);
      });
      expect(await inContext(() => tokens.findOwner('d'.repeat(64), at(1)))).toBeNull();
    });
  });

  describe('password reset codes', () => {
    it('are consumed once, even by concurrent confirmations', async () => {
      const user = await inContext(() => newUser(1));
      const resets = new MikroOrmPasswordResetRepository(em);
      await inContext(() => resets.add({ digest: 'r'.repeat(64), userId: user.id, createdAt: t0, expiresAt: at(3600) }));
      const results = await Promise.all(Array.from({ length: 10 }, () => inContext(() => resets.consume('r'.repeat(64), at(10)))));
      expect(results.filter((r) => r === user.id)).toHaveLength(1);
      expect(results.filter((r) => r === null)).toHaveLength(9);
    });

    it('are refused once expired', async () => {
      const user = await inContext(() => newUser(1));
      const resets = new MikroOrmPasswordResetRepository(em);
      await inContext(() => resets.add({ digest: 's'.repeat(64), userId: user.id, createdAt: t0, expiresAt: at(3600) }));
      expect(await inContext(() => resets.consume('s'.repeat(64), at(3600)))).toBeNull();
    });
  });

  it('counts attempts per kind and key within a window, and clears them', async () => {
    const log = new MikroOrmAttemptLog(em);
    await inContext(async () => {
      await log.record('login-email', 'a@example.com', at(0));
      await log.record('login-email', 'a@example.com', at(10));
      await log.record('login-email', 'b@example.com', at(10));
      await log.record('login-address', 'a@example.com', at(10));
    });
    const ids = await inContext(async () => [await log.record('reset-email', 'r', at(1)), await log.record('reset-email', 'r', at(2))]);
    await inContext(() => log.remove([ids[0]!]));
    expect(await inContext(() => log.countSince('reset-email', 'r', at(-1)))).toEqual({ count: 1, oldest: at(2) });
    expect(await inContext(() => log.countSince('login-email', 'a@example.com', at(-1)))).toEqual({ count: 2, oldest: at(0) });
    expect(await inContext(() => log.countSince('login-email', 'a@example.com', at(5)))).toEqual({ count: 1, oldest: at(10) });
    await inContext(() => log.clear('login-email', 'a@example.com'));
    expect(await inContext(() => log.countSince('login-email', 'a@example.com', at(-1)))).toEqual({ count: 0, oldest: null });
    expect((await inContext(() => log.countSince('login-email', 'b@example.com', at(-1)))).count).toBe(1);
  });

  it('records, counts and forgets several kinds and keys in one statement each, in the order given', async () => {
    const log = new MikroOrmAttemptLog(em);
    const keys = [
      { kind: 'login-pair', key: '10.0.0.1 c@example.com' },
      { kind: 'login-email', key: 'c@example.com' },
      { kind: 'login-address', key: '10.0.0.1' },
    ] as const;
    await inContext(() => log.record('login-email', 'c@example.com', at(-100)));
    await inContext(() => log.record('login-email', 'c@example.com', at(5)));
    const first = await inContext(() => log.recordAll(keys, at(10)));
    const second = await inContext(() => log.recordAll(keys, at(20)));
    expect(first).toHaveLength(3);
    expect(new Set([...first, ...second]).size).toBe(6);
    // Each id is the row of its own kind and key: removing the first pair's id leaves the others.
    await inContext(() => log.remove([first[0]!]));
    expect(await inContext(() => log.countAllSince(keys, at(0)))).toEqual([
      { count: 1, oldest: at(20) },
      { count: 3, oldest: at(5) },
      { count: 2, oldest: at(10) },
    ]);
    expect(await inContext(() => log.countAllSince([{ kind: 'reset-email', key: 'nobody' }], at(0)))).toEqual([{ count: 0, oldest: null }]);

    // The second attempt forgets itself and clears every login-email attempt of c@example.com.
    await inContext(() => log.removeAndClear(second, [{ kind: 'login-email', key: 'c@example.com' }]));
    expect(await inContext(() => log.countAllSince(keys, at(-1000)))).toEqual([
      { count: 0, oldest: null },
      { count: 0, oldest: null },
      { count: 1, oldest: at(10) },
    ]);
    expect(await inContext(() => log.recordAll([], at(0)))).toEqual([]);
    expect(await inContext(() => log.countAllSince([], at(0)))).toEqual([]);
    await inContext(() => log.removeAndClear([], []));
  });

  it('registers, lists and revokes app ids', async () => {
    const apps = new MikroOrmAppRegistry(em);
    await inContext(() => apps.add({ appId: 'app-one', name: 'One', createdAt: t0, revokedAt: null }));
    expect(await inContext(() => apps.isActive('app-one'))).toBe(true);
    expect(await inContext(() => apps.isActive('app-two'))).toBe(false);
    await inContext(() => apps.revoke('app-one', at(5)));
    expect(await inContext(() => apps.isActive('app-one'))).toBe(false);
    expect(await inContext(() => apps.list())).toEqual([{ appId: 'app-one', name: 'One', createdAt: t0, revokedAt: at(5) }]);
  });
});

describe('identity adapters', () => {
  it('argon2id hashes verify, differ per call (salted) and reject a wrong or malformed hash', async () => {
    const hasher = new Argon2PasswordHasher({ memoryCost: 8192, timeCost: 1, parallelism: 1 });
    const one = await hasher.hash('correct horse battery');
    const two = await hasher.hash('correct horse battery');
    expect(one).toMatch(/^\$argon2id\$/);
    expect(one).not.toBe(two);
    expect(await hasher.verify(one, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(one, 'wrong horse battery')).toBe(false);
    expect(await hasher.verify('not-a-hash', 'correct horse battery')).toBe(false);
  });

  it('bounds concurrent hashes to the cores, leaving at least one libuv thread to the rest of the process', () => {
    const before = process.env['UV_THREADPOOL_SIZE'];
    try {
      delete process.env['UV_THREADPOOL_SIZE'];
      const byDefault = defaultHashingBounds();
      expect(byDefault.concurrency).toBe(Math.min(availableParallelism(), 3));
      expect(byDefault.maxWaiting).toBe(64 * byDefault.concurrency);
      process.env['UV_THREADPOOL_SIZE'] = '2';
      expect(defaultHashingBounds().concurrency).toBe(1);
      process.env['UV_THREADPOOL_SIZE'] = '1';
      expect(defaultHashingBounds().concurrency).toBe(1);
      process.env['UV_THREADPOOL_SIZE'] = '128';
      expect(defaultHashingBounds().concurrency).toBe(availableParallelism());
    } finally {
      if (before === undefined) delete process.env['UV_THREADPOOL_SIZE'];
      else process.env['UV_THREADPOOL_SIZE'] = before;
    }
  });

  it('makes 256-bit url-safe secrets and stores SHA-256 digests of them', () => {
    const secrets = new CryptoSecrets();
    const a = secrets.generate();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secrets.generate()).not.toBe(a);
    expect(secrets.digest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
