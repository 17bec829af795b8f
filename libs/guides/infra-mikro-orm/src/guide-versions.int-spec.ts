import pg from 'pg';
import { createTestOrm, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { guidesMigrations } from './migrations/index.js';
import { GUIDE_VERSIONS_CHANNEL, guidesSchemas } from './schemas/guides.schemas.js';
import { PUBLIC_GUIDE_FOR_READER_SQL, PUBLIC_GUIDE_VERSION_AND_BODY_SQL } from './repositories/guide-version.js';
import { GUIDE_DISCUSSION_CHANGED_SQL } from './repositories/guide-discussion.js';

/** The `guide_versions` announcements that let API instances keep guide bodies without a lookup per read. */
describe('guide version announcements (NOTIFY)', () => {
  let db: TestOrm;
  let writer: pg.Client;
  let listener: pg.Client;
  const heard: string[] = [];

  const insert = (id: number, prerequisites: number[] = []) =>
    writer.query(
      `INSERT INTO guides (id, revisionid, author_id, contributor_ids, title, category, subject, type, summary, introduction, conclusion,
         time_required_min, time_required_max, parts, tools, prerequisites, flags, is_public, locale, created_at, modified_at)
       VALUES ($1, $1 * 10, 1, '{}', 'Guide ' || $1, 'Phone', '', 'repair', '', '', '', 0, 0, '[]', '[]', $2, '{}', true, 'en', now(), now())`,
      [id, prerequisites],
    );

  /** What the listener hears once a marker sent after `action` arrives (NOTIFY is delivered in commit order). */
  async function heardAfter(action: () => Promise<unknown>): Promise<string[]> {
    heard.length = 0;
    await action();
    const marker = `marker-${Math.random()}`;
    await writer.query('SELECT pg_notify($1, $2)', [GUIDE_VERSIONS_CHANNEL, marker]);
    for (let i = 0; i < 200 && !heard.includes(marker); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard).toContain(marker);
    return heard.filter((payload) => payload !== marker);
  }

  beforeAll(async () => {
    db = await createTestOrm({ entities: guidesSchemas, migrations: guidesMigrations });
    writer = new pg.Client({ connectionString: db.url });
    listener = new pg.Client({ connectionString: db.url });
    await Promise.all([writer.connect(), listener.connect()]);
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`LISTEN ${GUIDE_VERSIONS_CHANNEL}`);
  });
  afterAll(async () => {
    await Promise.all([writer?.end(), listener?.end()]);
    await db?.close();
  });

  it('announces a new guide, and each change to its revision, visibility, deletion or prerequisites', async () => {
    expect(await heardAfter(() => insert(1))).toEqual(['1']);
    expect(await heardAfter(() => insert(2, [1]))).toEqual(['2']);
    expect(await heardAfter(() => writer.query('UPDATE guides SET revisionid = 11 WHERE id = 1'))).toEqual(['1']);
    expect(await heardAfter(() => writer.query('UPDATE guides SET is_public = false WHERE id = 1'))).toEqual(['1']);
    expect(await heardAfter(() => writer.query('UPDATE guides SET deleted_at = now() WHERE id = 1'))).toEqual(['1']);
    expect(await heardAfter(() => writer.query("UPDATE guides SET prerequisites = '{}' WHERE id = 2"))).toEqual(['2']);
    expect(await heardAfter(() => writer.query('DELETE FROM guides WHERE id = 2'))).toEqual(['2']);
  });

  it('stays quiet for updates that leave the version as it was, and for work that rolls back', async () => {
    expect(await heardAfter(() => insert(3))).toEqual(['3']);
    expect(await heardAfter(() => writer.query("UPDATE guides SET title = 'Same revision' WHERE id = 3"))).toEqual([]);
    expect(
      await heardAfter(async () => {
        await writer.query('BEGIN');
        await writer.query('UPDATE guides SET revisionid = 31 WHERE id = 3');
        await writer.query('ROLLBACK');
      }),
    ).toEqual([]);
  });

  it('looks up the version with the prerequisites it covers', async () => {
    await insert(4);
    await insert(5, [4]);
    const { rows } = await writer.query(PUBLIC_GUIDE_VERSION_AND_BODY_SQL, [5, true, 'format', '']);
    expect(rows).toEqual([{ version: '50.0.40.0m0c0.0', prerequisites: [4], marker: null, template: null, views: '0' }]);
    expect((await writer.query(PUBLIC_GUIDE_VERSION_AND_BODY_SQL, [99, true, 'format', ''])).rows).toEqual([]);
  });

  it('reads the stored body of the current version unless the caller holds that version already', async () => {
    await insert(8);
    const version = (await writer.query(PUBLIC_GUIDE_VERSION_AND_BODY_SQL, [8, true, 'format', ''])).rows[0].version as string;
    await writer.query(`INSERT INTO guide_bodies (guide_id, inline, version, format, marker, template) VALUES (8, true, $1, 'format', 'm', '{}')`, [version]);
    const body = async (held: string) => (await writer.query(PUBLIC_GUIDE_VERSION_AND_BODY_SQL, [8, true, 'format', held])).rows[0];
    expect(await body('')).toMatchObject({ version, marker: 'm', template: '{}' });
    expect(await body('7.0.0.0m0')).toMatchObject({ version, marker: 'm', template: '{}' });
    expect(await body(version)).toMatchObject({ version, marker: null, template: null });
    // The signed-in reader's statement likewise.
    expect((await writer.query(PUBLIC_GUIDE_FOR_READER_SQL, [8, true, 'format', version, 4])).rows[0]).toMatchObject({ version, template: null, marks: [] });
    expect((await writer.query(PUBLIC_GUIDE_FOR_READER_SQL, [8, true, 'format', '', 4])).rows[0]).toMatchObject({ version, template: '{}' });
  });

  it("reads, for a signed-in reader, the same version and body with who may edit the guide, the reader's marks and its prerequisites that are not public", async () => {
    await insert(11);
    await insert(12);
    await writer.query('UPDATE guides SET is_public = false WHERE id = 12');
    await insert(13, [11, 12]);
    await writer.query("INSERT INTO guide_collaborators (guide_id, user_id, created_at) VALUES (13, 8, now()), (13, 4, now())");
    await writer.query("INSERT INTO guide_teams (guide_id, team_id, created_at) VALUES (13, 30, now())");
    await writer.query("INSERT INTO guide_marks (kind, user_id, guide_id, created_at) VALUES ('favorite', 4, 13, now()), ('completion', 4, 13, now()), ('favorite', 5, 13, now())");
    const anonymous = (await writer.query(PUBLIC_GUIDE_VERSION_AND_BODY_SQL, [13, true, 'format', ''])).rows[0];
    const reader = async (userId: number) => (await writer.query(PUBLIC_GUIDE_FOR_READER_SQL, [13, true, 'format', '', userId])).rows[0];
    expect(await reader(4)).toEqual({ ...anonymous, author_id: 1, collaborator_ids: [4, 8], team_ids: [30], marks: ['completion', 'favorite'], hidden_prerequisites: 1 });
    expect(await reader(5)).toMatchObject({ marks: ['favorite'] });
    expect(await reader(6)).toMatchObject({ marks: [] });
    expect((await writer.query(PUBLIC_GUIDE_FOR_READER_SQL, [12, true, 'format', '', 4])).rows).toEqual([]);
    expect((await writer.query(PUBLIC_GUIDE_FOR_READER_SQL, [11, true, 'format', '', 4])).rows[0]).toMatchObject({ collaborator_ids: [], team_ids: [], hidden_prerequisites: 0 });
  });

  it('a change to the comments of a guide or of a prerequisite changes its version, announced like any other', async () => {
    await insert(6);
    await insert(7, [6]);
    const version = async (id: number) => (await writer.query(PUBLIC_GUIDE_VERSION_AND_BODY_SQL, [id, true, 'format', ''])).rows[0].version as string;
    const before = [await version(6), await version(7)];
    // The statement as the comments' unit of work runs it (`?` placeholder, in pg's `$1` form here).
    const touch = (id: number) => writer.query(GUIDE_DISCUSSION_CHANGED_SQL.replace('?', '$1'), [id]);
    expect(await heardAfter(() => touch(6))).toEqual(['6']);
    const after = [await version(6), await version(7)];
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(await heardAfter(() => touch(7))).toEqual(['7']);
    expect(await version(7)).not.toBe(after[1]);
    // The revision (the clients' token) stays.
    expect((await writer.query('SELECT revisionid FROM guides WHERE id = 7')).rows[0].revisionid).toBe(70);
  });
});
