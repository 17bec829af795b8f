import { Migration } from '@mikro-orm/migrations';
import { EntitySchema, MikroORM } from '@mikro-orm/postgresql';
import { createTestOrm, type TestOrm } from './testing/test-database.js';
import { ormConfig } from './orm-config.js';
import { PreparedStatement, queryPrepared } from './prepared-statements.js';

class Things extends Migration {
  override name = '20260101000000-things';
  up(): void {
    this.addSql("CREATE TABLE things (id serial PRIMARY KEY, name text NOT NULL, size bigint NOT NULL, made_at timestamptz NOT NULL DEFAULT '2026-01-02T03:04:05Z', tags jsonb NOT NULL DEFAULT '[]')");
    this.addSql("INSERT INTO things (name, size, tags) VALUES ('bolt', 9007199254740993, '[\"steel\"]'), ('nut', 2, '[]')");
  }
}

const Thing = new EntitySchema<{ id: number; name: string }>({ name: 'Thing', tableName: 'things', properties: { id: { type: 'number', primary: true }, name: { type: 'string' } } });

const SELECT = 'SELECT id, name, size, made_at, tags, ?::text AS echo FROM things WHERE name = ? OR ? = ? ORDER BY id';

describe('prepared statements (PostgreSQL)', () => {
  let db: TestOrm;
  let orm: MikroORM;
  const logged: string[] = [];

  beforeAll(async () => {
    db = await createTestOrm({ entities: [Thing], migrations: [{ name: '20260101000000-things', class: Things }] });
    // One connection, so that the statement's preparation is visible to the next statement.
    orm = await MikroORM.init(ormConfig({ clientUrl: db.url, entities: [Thing], migrations: [], poolMax: 1, onQuery: (sql) => logged.push(sql) }));
  });
  afterAll(async () => {
    await orm?.close(true);
    await db?.close();
  });

  it('answers what em.execute answers for the same values (types parsed alike), and logs the statement', async () => {
    const statement = new PreparedStatement(SELECT);
    const em = orm.em.fork();
    expect(statement.text).toBe('SELECT id, name, size, made_at, tags, $1::text AS echo FROM things WHERE name = $2 OR $3 = $4 ORDER BY id');
    const values = ["it's", 'bolt', 'bolt', "it's"];
    const expected = await em.execute(SELECT, values);
    logged.length = 0;
    const rows = await queryPrepared(em, statement, values);
    expect(rows).toEqual(expected);
    expect(rows).toEqual([{ id: 1, name: 'bolt', size: '9007199254740993', made_at: expected[0]!['made_at'], tags: ['steel'], echo: "it's" }]);
    expect(logged).toEqual([expect.stringContaining(statement.sql)]);
  });

  it('is planned once per connection: the connection keeps it prepared under its name', async () => {
    const statement = new PreparedStatement('SELECT count(*)::int AS n FROM things WHERE size > ?');
    const em = orm.em.fork();
    expect(await queryPrepared(em, statement, [1])).toEqual([{ n: 2 }]);
    expect(await queryPrepared(em, statement, [5])).toEqual([{ n: 1 }]);
    const kept = await em.execute<{ name: string; statement: string }[]>('SELECT name, statement FROM pg_prepared_statements');
    expect(kept.filter((k) => k.name === statement.name)).toEqual([{ name: statement.name, statement: statement.text }]);
  });

  it('inside a transaction, runs on its connection and sees its own writes', async () => {
    const statement = new PreparedStatement('SELECT name FROM things WHERE name = ?');
    await expect(
      orm.em.fork().transactional(async (em) => {
        await em.execute("INSERT INTO things (name, size) VALUES ('washer', 3)");
        expect(await queryPrepared(em, statement, ['washer'])).toEqual([{ name: 'washer' }]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await queryPrepared(orm.em.fork(), statement, ['washer'])).toEqual([]);
  });

  it('prepares anew when a migration changed what a kept plan returns', async () => {
    const statement = new PreparedStatement('SELECT * FROM things WHERE id = ?');
    const em = orm.em.fork();
    expect(Object.keys((await queryPrepared(em, statement, [2]))[0]!)).not.toContain('colour');
    const first = statement.name;
    await em.execute("ALTER TABLE things ADD COLUMN colour text NOT NULL DEFAULT 'grey'");
    expect(await queryPrepared(em, statement, [2])).toEqual([expect.objectContaining({ id: 2, name: 'nut', colour: 'grey' })]);
    expect(statement.name).not.toBe(first);
  });

  it('reports a failure as MikroORM reports its own statements', async () => {
    const statement = new PreparedStatement('SELECT id FROM no_such_table WHERE id = ?');
    await expect(queryPrepared(orm.em.fork(), statement, [1])).rejects.toMatchObject({ name: 'TableNotFoundException' });
  });
});
