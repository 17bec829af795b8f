import pg from 'pg';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from './orm-config.js';
import { formatLsn, inReadScope, onPrimary, parseLsn, ReplicaRoutingDriver, type ReadScope } from './read-replicas.js';
import { createTestDatabase, type TestDatabase } from './testing/test-database.js';
import { freePort } from './embedded-postgres.js';
import { PreparedStatement, queryPrepared } from './prepared-statements.js';
import { startReplicatedPostgres, type ReplicatedPostgres } from './testing/replicated-postgres.js';
import { ContentStampReader, contentStampSetupSql, contentStampTriggerSql, RequestStampReader } from './content-stamps.js';

const scope = (): ReadScope => ({ replica: 0, fellBack: false, wrote: false });

describe('ReplicaRoutingDriver on a real primary and streaming replica', () => {
  let servers: ReplicatedPostgres;
  let db: TestDatabase;
  let orm: MikroORM;
  let driver: ReplicaRoutingDriver;

  /** Where a statement ran: `true` on the replica (in recovery), `false` on the primary. */
  const onReplica = async () => (await orm.em.fork().execute<{ r: boolean }[]>('SELECT pg_is_in_recovery() AS r'))[0]!.r;

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    db = await createTestDatabase({ serverUrl: servers.primaryUrl });
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query('CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
    for (const sql of [...contentStampSetupSql(), contentStampTriggerSql('notes')]) await admin.query(sql);
    await admin.end();
    await servers.caughtUp();
    orm = await MikroORM.init({ ...ormConfig({ clientUrl: db.url, replicaUrls: [servers.replicaUrlOf(db.url)], entities: [], migrations: [] }), discovery: { warnWhenNoEntities: false } });
    driver = orm.em.getDriver() as ReplicaRoutingDriver;
  }, 120_000);

  afterAll(async () => {
    await orm?.close(true);
    await db?.drop();
    await servers?.stop();
  });

  it('is the driver when replicas are configured', () => {
    expect(driver).toBeInstanceOf(ReplicaRoutingDriver);
    expect(driver.replicaSet.size).toBe(1);
  });

  /** Where a statement on the connection MikroORM gives for `type` (`read`: em.find, query builders) ran. */
  const onReplicaBy = async (type: 'read' | 'write') => (await orm.em.getConnection(type).execute<{ r: boolean }[]>('SELECT pg_is_in_recovery() AS r'))[0]!.r;

  it('sends statements to the primary outside a read scope (MikroORM\'s `read` connections too), and in a scope naming none', async () => {
    expect(await onReplica()).toBe(false);
    expect(await onReplicaBy('read')).toBe(false);
    expect(await inReadScope({ ...scope(), replica: null }, onReplica)).toBe(false);
  });

  it("sends a scope's plain statements to its replica, on `read` and `write` connections alike, but never a transaction's", async () => {
    expect(await inReadScope(scope(), onReplica)).toBe(true);
    expect(await inReadScope(scope(), () => onReplicaBy('read'))).toBe(true);
    expect(await inReadScope(scope(), () => onReplicaBy('write'))).toBe(true);
    const em = orm.em.fork();
    expect(await inReadScope(scope(), () => em.transactional(async (tx) => (await tx.execute<{ r: boolean }[]>('SELECT pg_is_in_recovery() AS r'))[0]!.r))).toBe(false);
    // Work for a process-wide cache goes to the primary inside a replica's scope.
    expect(await inReadScope(scope(), () => onPrimary(onReplica))).toBe(false);
  });

  it("sends a scope's prepared statements to its replica too, and a transaction's to the primary", async () => {
    const recovery = new PreparedStatement('SELECT pg_is_in_recovery() AS r, ?::int AS n');
    const onReplicaPrepared = async (em = orm.em.fork()) => (await queryPrepared<{ r: boolean; n: number }>(em, recovery, [7]))[0]!;
    expect(await onReplicaPrepared()).toEqual({ r: false, n: 7 });
    expect(await inReadScope(scope(), () => onReplicaPrepared())).toEqual({ r: true, n: 7 });
    expect(await inReadScope(scope(), () => orm.em.fork().transactional((tx) => onReplicaPrepared(tx)))).toEqual({ r: false, n: 7 });
    expect(await inReadScope(scope(), () => onPrimary(() => onReplicaPrepared()))).toEqual({ r: false, n: 7 });
  });

  it('runs a statement that writes on the primary, and the rest of the scope there (it reads its own write)', async () => {
    const s = scope();
    const found = await inReadScope(s, async () => {
      const em = orm.em.fork();
      await em.execute(`INSERT INTO notes (text) VALUES ('written in a GET')`);
      return em.execute<{ text: string }[]>(`SELECT text FROM notes WHERE text = 'written in a GET'`);
    });
    expect(found).toEqual([{ text: 'written in a GET' }]);
    expect(s).toEqual({ replica: null, fellBack: false, wrote: true });
  });

  it('picks the replica only once it has replayed the position asked, asking it when what is known is not enough', async () => {
    const set = driver.replicaSet;
    await servers.caughtUp();
    expect(await set.pick(null)).toBe(0);
    await servers.pauseReplay();
    try {
      await orm.em.fork().execute(`INSERT INTO notes (text) VALUES ('after the pause')`);
      const written = await set.primaryPosition();
      expect(await set.pick(written)).toBeNull();
      const replayed = await set.replayedNow(0);
      expect(replayed! < written).toBe(true);
      expect(await set.pick(replayed)).toBe(0);
    } finally {
      await servers.resumeReplay();
    }
    await servers.caughtUp();
    expect(await set.pick(await set.primaryPosition())).toBe(0);
  });

  it("reads a request's content stamp on the server it would read, with that server's position: the replica's unless the token sent back is newer", async () => {
    const requests = new RequestStampReader(orm.em.fork(), 'X-Token');
    const stamps = new ContentStampReader(orm.em.fork());
    await servers.caughtUp();
    const before = await requests.read({ headers: {} });
    expect(before).toMatchObject({ server: 0, headers: [['X-Token', expect.any(String)]] });
    await servers.pauseReplay();
    try {
      await orm.em.fork().execute(`INSERT INTO notes (text) VALUES ('counted by the stamp')`);
      const written = await driver.replicaSet.primaryPosition();
      // No token: the replica, its older stamp (and its route's reads there see the same).
      const anonymous = await requests.read({ headers: {} });
      expect(anonymous).toMatchObject({ server: 0, stamp: before.stamp });
      expect(await inReadScope(scope(), () => stamps.current())).toBe(before.stamp);
      expect(inReadScope(scope(), () => stamps.server())).toBe(0);
      // The write's token: the replica has not replayed it, so the primary, its newer stamp, a token at or past the write.
      const own = await requests.read({ headers: { 'x-token': formatLsn(written) } });
      expect(own).toMatchObject({ server: null, stamp: String(Number(before.stamp) + 1) });
      expect(parseLsn(own.headers![0]![1])! >= written).toBe(true);
      expect(await stamps.current()).toBe(own.stamp);
    } finally {
      await servers.resumeReplay();
    }
    await servers.caughtUp();
    expect(await requests.read({ headers: {} })).toMatchObject({ server: 0, stamp: String(Number(before.stamp) + 1) });
  });

  it('runs a read on the primary when the replica is down, marks it down, and finds it back', async () => {
    // A connection to the replica is open in the pool; stopping the replica breaks it.
    expect(await inReadScope(scope(), onReplica)).toBe(true);
    await servers.stopReplica();
    try {
      const s = scope();
      expect(await inReadScope(s, onReplica)).toBe(false);
      expect(s).toMatchObject({ replica: null, fellBack: true });
      // A prepared statement falls back alike.
      const p = scope();
      expect(await inReadScope(p, async () => (await queryPrepared<{ r: boolean }>(orm.em.fork(), new PreparedStatement('SELECT pg_is_in_recovery() AS r')))[0]!.r)).toBe(false);
      expect(p).toMatchObject({ replica: null, fellBack: true });
      expect(driver.replicaSet.state()[0]).toMatchObject({ up: false, problem: expect.any(String) });
      expect(await driver.replicaSet.pick(null)).toBeNull();
    } finally {
      await servers.startReplica();
    }
    expect(await driver.replicaSet.replayedNow(0)).not.toBeNull();
    expect(driver.replicaSet.state()[0]).toMatchObject({ up: true, problem: null });
    expect(await inReadScope(scope(), onReplica)).toBe(true);
  });

  it('starts with a replica that cannot be reached, and reads the primary meanwhile', async () => {
    const nowhere = new URL(db.url);
    nowhere.port = String(await freePort());
    const alone = await MikroORM.init({ ...ormConfig({ clientUrl: db.url, replicaUrls: [nowhere.toString()], entities: [], migrations: [] }), discovery: { warnWhenNoEntities: false } });
    try {
      const set = (alone.em.getDriver() as ReplicaRoutingDriver).replicaSet;
      expect(await set.replayedNow(0)).toBeNull();
      expect(set.state()[0]).toMatchObject({ up: false, problem: expect.any(String) });
      expect(await set.pick(null)).toBeNull();
      // A scope that named it anyway (chosen before it went down) reads the primary.
      const s = scope();
      const rows = await inReadScope(s, () => alone.em.fork().execute<{ r: boolean }[]>('SELECT pg_is_in_recovery() AS r'));
      expect(rows).toEqual([{ r: false }]);
      expect(s.fellBack).toBe(true);
    } finally {
      await alone.close(true);
    }
  });

  it('reads and writes WAL positions', () => {
    expect(parseLsn('16/B374D848')).toBe(0x16b374d848n);
    expect(formatLsn(0x16b374d848n)).toBe('16/B374D848');
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('nonsense')).toBeNull();
    expect(parseLsn('1/2/3')).toBeNull();
  });
});
