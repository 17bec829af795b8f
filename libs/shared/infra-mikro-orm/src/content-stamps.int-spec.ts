import { Migration } from '@mikro-orm/migrations';
import { EntitySchema } from '@mikro-orm/postgresql';
import { createTestOrm, type TestOrm } from './testing/test-database.js';
import { CONTENT_STAMP_SQL, ContentStampReader, contentStampSetupSql, contentStampTriggerSql, pruneContentChanges } from './content-stamps.js';
import pg from 'pg';

class StampedTables extends Migration {
  override name = '20260101000000-stamped-tables';
  up(): void {
    this.addSql('CREATE TABLE items (id serial PRIMARY KEY, title text NOT NULL, secret text)');
    this.addSql('CREATE TABLE notes (id serial PRIMARY KEY, body text)');
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('items', ['title']));
    // Run twice, as two contexts' migrations would: nothing is created twice.
    for (const sql of contentStampSetupSql()) this.addSql(sql);
    this.addSql(contentStampTriggerSql('notes'));
  }
}

/** The ORM needs an entity; the tests write with SQL. */
const Item = new EntitySchema<{ id: number; title: string }>({ name: 'StampedItem', tableName: 'items', properties: { id: { type: 'number', primary: true }, title: { type: 'string' } } });

describe('the content stamp (PostgreSQL)', () => {
  let db: TestOrm;
  let client: pg.Client;
  let other: pg.Client;
  const stamp = async (c: pg.Client = client) => BigInt((await c.query<{ stamp: string }>(CONTENT_STAMP_SQL)).rows[0]!.stamp);

  beforeAll(async () => {
    db = await createTestOrm({ entities: [Item], migrations: [{ name: '20260101000000-stamped-tables', class: StampedTables }] });
    client = new pg.Client({ connectionString: db.url });
    other = new pg.Client({ connectionString: db.url });
    await Promise.all([client.connect(), other.connect()]);
  });
  afterAll(async () => {
    await Promise.all([client?.end(), other?.end()]);
    await db?.close();
  });

  it('grows with every committed insert, watched update, delete and truncate', async () => {
    let last = await stamp();
    const grows = async (sql: string) => {
      await client.query(sql);
      const now = await stamp();
      expect(now).toBeGreaterThan(last);
      last = now;
    };
    await grows("INSERT INTO items (title) VALUES ('a'), ('b')");
    await grows("UPDATE items SET title = 'c' WHERE title = 'a'");
    await grows("DELETE FROM items WHERE title = 'b'");
    await grows("INSERT INTO notes (body) VALUES ('n')");
    await grows('TRUNCATE notes');
  });

  it('stays the same for an update of an unwatched column and for other tables', async () => {
    await client.query("INSERT INTO items (title) VALUES ('kept')");
    const before = await stamp();
    await client.query("UPDATE items SET secret = 'hidden'");
    await client.query('CREATE TEMP TABLE scratch (x int)');
    await client.query('INSERT INTO scratch VALUES (1)');
    expect(await stamp()).toBe(before);
  });

  it('counts a transaction once whatever it changed, and only once it commits', async () => {
    const before = await stamp();
    await client.query('BEGIN');
    await client.query("INSERT INTO items (title) VALUES ('x')");
    await client.query("UPDATE items SET title = 'y' WHERE title = 'x'");
    await client.query("INSERT INTO notes (body) VALUES ('z')");
    expect(await stamp(other)).toBe(before);
    await client.query('COMMIT');
    expect(await stamp(other)).toBe(before + 1n);
    await client.query('BEGIN');
    await client.query("INSERT INTO items (title) VALUES ('rolled back')");
    await client.query('ROLLBACK');
    expect(await stamp(other)).toBe(before + 1n);
  });

  it('lets concurrent writers commit without waiting on one another', async () => {
    const before = await stamp();
    await client.query('BEGIN');
    await other.query('BEGIN');
    await client.query("INSERT INTO items (title) VALUES ('one')");
    // Would block (and this test time out) if both counted in a shared row.
    await other.query("INSERT INTO items (title) VALUES ('two')");
    await other.query('COMMIT');
    await client.query('COMMIT');
    expect(await stamp()).toBe(before + 2n);
  });

  it('reads the same after pruning, also when two prune at once', async () => {
    for (let i = 0; i < 30; i++) await client.query('INSERT INTO items (title) VALUES ($1)', [`p${i}`]);
    const before = await stamp();
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    const pruned = await Promise.all([pruneContentChanges(pool, 20), pruneContentChanges(pool, 1000)]).finally(() => pool.end());
    expect(await stamp()).toBe(before);
    const left = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM content_changes')).rows[0]!.n);
    expect(left).toBe(0);
    expect(pruned[0]! + pruned[1]!).toBeGreaterThanOrEqual(30);
    expect(await new ContentStampReader(db.orm.em.fork()).current()).toBe(before.toString());
    await client.query("INSERT INTO items (title) VALUES ('after')");
    expect(await stamp()).toBe(before + 1n);
  });

  it('reads the primary once for concurrent readers, in a read started after each asked', async () => {
    const reader = new ContentStampReader(db.orm.em.fork());
    // Every reader of one ORM shares the reads.
    const sibling = new ContentStampReader(db.orm.em.fork());
    const before = reader.primaryReads;
    const stamps = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? sibling : reader).current()));
    // The first started a read; the others asked while it was under way and shared the next one.
    expect(reader.primaryReads - before).toBe(2);
    expect(new Set(stamps).size).toBe(1);
    const underWay = reader.current();
    await client.query("INSERT INTO items (title) VALUES ('while a read was under way')");
    const after = await reader.current();
    expect(BigInt(after)).toBe(BigInt(stamps[0]!) + 1n);
    expect(BigInt(await underWay)).toBeGreaterThanOrEqual(BigInt(stamps[0]!));
  });
});
