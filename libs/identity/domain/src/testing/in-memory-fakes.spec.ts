import { InvalidAccountDataError } from '../identity.errors.js';
import type { Email } from '../model/email.js';
import { User, type UserId } from '../model/user.js';
import { FakePasswordHasher } from './fake-password-hasher.js';
import { FakeSecrets } from './fake-secrets.js';
import { InMemoryAppRegistry } from './in-memory-app-registry.js';
import { InMemoryAttemptLog } from './in-memory-attempt-log.js';
import { InMemoryAuthTokenRepository } from './in-memory-auth-token.repository.js';
import { InMemoryPasswordResetRepository } from './in-memory-password-reset.repository.js';
import { InMemoryUserRepository } from './in-memory-user.repository.js';
import { RecordingMailer } from './recording-mailer.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

async function newUser(users: InMemoryUserRepository, email: string, uniqueUsername: string): Promise<User> {
  const user = User.register({
    id: await users.nextId(),
    email: email as Email,
    username: uniqueUsername,
    uniqueUsername,
    passwordHash: 'hashed:x',
    joinedAt: T0,
  });
  await users.save(user);
  return user;
}

describe('InMemoryUserRepository', () => {
  it('hands out increasing ids', async () => {
    const users = new InMemoryUserRepository();
    expect([await users.nextId(), await users.nextId()]).toEqual([1, 2]);
  });

  it('finds by id and email, as User instances', async () => {
    const users = new InMemoryUserRepository();
    const jane = await newUser(users, 'jane@example.com', 'Jane');
    const byId = await users.findById(jane.id);
    expect(byId).toBeInstanceOf(User);
    expect(byId?.isActive).toBe(true);
    expect({ ...byId }).toEqual({ ...jane });
    expect((await users.findByEmail('jane@example.com' as Email))?.id).toBe(jane.id);
    expect(await users.findByEmail('other@example.com' as Email)).toBeNull();
    expect(await users.findById(99 as UserId)).toBeNull();
  });

  it('makes changes visible only once saved', async () => {
    const users = new InMemoryUserRepository();
    const jane = await newUser(users, 'jane@example.com', 'jane');
    const copy = (await users.findById(jane.id))!;
    copy.assignRole('Admin');
    expect((await users.findById(jane.id))?.role).toBe('User');
    await users.save(copy);
    expect((await users.findById(jane.id))?.role).toBe('Admin');
  });

  it('reports taken keys, unique_username case-insensitively', async () => {
    const users = new InMemoryUserRepository();
    await newUser(users, 'jane@example.com', 'Jane_Doe');
    expect(await users.findTaken('jane@example.com' as Email, 'free')).toEqual({ email: true, uniqueUsername: false });
    expect(await users.findTaken('new@example.com' as Email, 'JANE_doe')).toEqual({ email: false, uniqueUsername: true });
    expect(await users.findTaken('new@example.com' as Email, 'free')).toEqual({ email: false, uniqueUsername: false });
  });

  it('refuses to save a duplicate of another account, like the unique indexes', async () => {
    const users = new InMemoryUserRepository();
    const jane = await newUser(users, 'jane@example.com', 'jane');
    await expect(newUser(users, 'jane@example.com', 'other')).rejects.toThrow(InvalidAccountDataError);
    await expect(newUser(users, 'other@example.com', 'JANE')).rejects.toMatchObject({ violations: [{ field: 'unique_username' }] });
    await expect(users.save(jane)).resolves.toBeUndefined();
    expect(users.all()).toHaveLength(1);
  });

  it('can set the stored status', async () => {
    const users = new InMemoryUserRepository();
    const jane = await newUser(users, 'jane@example.com', 'jane');
    users.setStatus(jane.id, 'disabled');
    expect((await users.findById(jane.id))?.isActive).toBe(false);
  });
});

describe('InMemoryAuthTokenRepository', () => {
  const setup = async () => {
    const users = new InMemoryUserRepository();
    const jane = await newUser(users, 'jane@example.com', 'jane');
    const tokens = new InMemoryAuthTokenRepository(users);
    const add = (digest: string, createdAt: number, ttl = 3600, userId = jane.id) =>
      tokens.add({ digest, userId, createdAt: at(createdAt), expiresAt: at(createdAt + ttl) });
    return { users, jane, tokens, add };
  };

  it('finds the owner of a live token, with the current role', async () => {
    const { users, jane, tokens, add } = await setup();
    await add('d1', 0);
    expect(await tokens.findOwner('d1', at(10))).toEqual({ userId: jane.id, role: 'User' });
    jane.assignRole('Admin');
    await users.save(jane);
    expect(await tokens.findOwner('d1', at(10))).toEqual({ userId: jane.id, role: 'Admin' });
    expect(await tokens.findOwner('unknown', at(10))).toBeNull();
  });

  it('finds no owner for an expired token or a disabled account', async () => {
    const { users, jane, tokens, add } = await setup();
    await add('d1', 0, 60);
    expect(await tokens.findOwner('d1', at(59))).not.toBeNull();
    expect(await tokens.findOwner('d1', at(60))).toBeNull();
    await add('d2', 0);
    users.setStatus(jane.id, 'disabled');
    expect(await tokens.findOwner('d2', at(1))).toBeNull();
  });

  it('add with keepNewest keeps the newest tokens of that user and drops the expired ones', async () => {
    const { jane, tokens, add } = await setup();
    await add('old-expired', 0, 10);
    await add('a', 1);
    await add('b', 2);
    await add('other', 0, 3600, 2 as UserId);
    await tokens.add({ digest: 'c', userId: jane.id, createdAt: at(20), expiresAt: at(3620) }, 2);
    expect(tokens.tokensOf(jane.id).map((t) => t.digest)).toEqual(['c', 'b']);
    expect(tokens.tokensOf(2 as UserId)).toHaveLength(1);
  });

  it('add with keepNewest breaks ties by insertion order', async () => {
    const { jane, tokens, add } = await setup();
    for (const digest of ['a', 'b']) await add(digest, 0);
    await tokens.add({ digest: 'c', userId: jane.id, createdAt: at(0), expiresAt: at(3600) }, 2);
    expect(tokens.tokensOf(jane.id).map((t) => t.digest)).toEqual(['c', 'b']);
  });

  it('removes one token, or all of a user', async () => {
    const { jane, tokens, add } = await setup();
    await add('a', 0);
    await add('b', 0);
    await add('other', 0, 3600, 2 as UserId);
    await tokens.remove('a');
    expect(tokens.tokensOf(jane.id).map((t) => t.digest)).toEqual(['b']);
    await tokens.removeAllOf(jane.id);
    expect(tokens.tokensOf(jane.id)).toEqual([]);
    expect(tokens.size).toBe(1);
  });
});

describe('InMemoryPasswordResetRepository', () => {
  const userId = 1 as UserId;

  it('consumes a live code once', async () => {
    const resets = new InMemoryPasswordResetRepository();
    await resets.add({ digest: 'd', userId, createdAt: T0, expiresAt: at(60) });
    expect(await resets.consume('d', at(1))).toBe(userId);
    expect(await resets.consume('d', at(2))).toBeNull();
    expect(resets.find('d')?.usedAt).toEqual(at(1));
  });

  it('gives exactly one of two concurrent confirmations the user', async () => {
    const resets = new InMemoryPasswordResetRepository();
    await resets.add({ digest: 'd', userId, createdAt: T0, expiresAt: at(60) });
    const results = await Promise.all([resets.consume('d', at(1)), resets.consume('d', at(1))]);
    expect(results.filter((r) => r !== null)).toEqual([userId]);
  });

  it('does not consume an expired or unknown code', async () => {
    const resets = new InMemoryPasswordResetRepository();
    await resets.add({ digest: 'd', userId, createdAt: T0, expiresAt: at(60) });
    expect(await resets.consume('d', at(60))).toBeNull();
    expect(await resets.consume('nope', at(1))).toBeNull();
    expect(resets.find('d')?.usedAt).toBeNull();
  });
});

describe('InMemoryAttemptLog', () => {
  it('counts attempts after a time (exclusive) and reports the oldest', async () => {
    const log = new InMemoryAttemptLog();
    await log.record('login-email', 'k', at(0));
    await log.record('login-email', 'k', at(10));
    await log.record('login-email', 'k', at(20));
    await log.record('login-email', 'other', at(20));
    await log.record('reset-email', 'k', at(20));
    expect(await log.countSince('login-email', 'k', at(9))).toEqual({ count: 2, oldest: at(10) });
    expect(await log.countSince('login-email', 'k', at(10))).toEqual({ count: 1, oldest: at(20) });
    expect(await log.countSince('login-email', 'k', at(20))).toEqual({ count: 0, oldest: null });
    await log.clear('login-email', 'k');
    expect(await log.countSince('login-email', 'k', at(0))).toEqual({ count: 0, oldest: null });
    expect(await log.countSince('reset-email', 'k', at(0))).toEqual({ count: 1, oldest: at(20) });
  });
});

describe('InMemoryAttemptLog ids', () => {
  it('removes exactly the attempts whose ids it is given', async () => {
    const log = new InMemoryAttemptLog();
    const first = await log.record('login-email', 'k', at(0));
    const second = await log.record('login-email', 'k', at(1));
    expect(first).not.toBe(second);
    await log.remove([first]);
    expect(await log.countSince('login-email', 'k', at(-1))).toEqual({ count: 1, oldest: at(1) });
  });
});

describe('InMemoryAppRegistry', () => {
  it('adds, finds, lists and revokes', async () => {
    const apps = new InMemoryAppRegistry();
    await apps.add({ appId: 'web', name: 'Web', createdAt: T0, revokedAt: null });
    expect(await apps.isActive('web')).toBe(true);
    expect(await apps.isActive('nope')).toBe(false);
    await apps.revoke('web', at(5));
    await apps.revoke('web', at(9));
    expect(await apps.find('web')).toEqual({ appId: 'web', name: 'Web', createdAt: T0, revokedAt: at(5) });
    expect(await apps.isActive('web')).toBe(false);
    expect(await apps.list()).toHaveLength(1);
    expect(await apps.find('nope')).toBeNull();
  });
});

describe('FakeSecrets, FakePasswordHasher, RecordingMailer', () => {
  it('generates distinct secrets shaped like real tokens, and readable digests', () => {
    const secrets = new FakeSecrets();
    const a = secrets.generate();
    const b = secrets.generate();
    expect(a).toBe('fake-secret-000001-token');
    expect(b).toBe('fake-secret-000002-token');
    for (const s of [a, b]) expect(s).toMatch(/^[A-Za-z0-9_-]{16,256}$/);
    expect(secrets.digest(a)).toBe(`digest:${a}`);
    expect(secrets.last).toBe(b);
  });

  it('hashes and verifies passwords, counting verifications', async () => {
    const hasher = new FakePasswordHasher();
    const hash = await hasher.hash('secret password');
    expect(hash).toBe('hashed:secret password');
    expect(await hasher.verify(hash, 'secret password')).toBe(true);
    expect(await hasher.verify(hash, 'other password')).toBe(false);
    expect(hasher.verifyCalls).toBe(2);
  });

  it('records mail', async () => {
    const mailer = new RecordingMailer();
    await mailer.send({ to: 'a@example.com', subject: 's', text: 't' });
    expect(mailer.sent).toEqual([{ to: 'a@example.com', subject: 's', text: 't' }]);
    expect(mailer.to('b@example.com')).toEqual([]);
  });
});
