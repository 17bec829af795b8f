import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { SystemClock } from '@rc/shared-kernel';
import { FixedClock } from '@rc/shared-kernel/testing';
import { CreateTeam, JoinOrAddMember, RemoveMember, TeamNotFoundError, type TeamActor, type TeamDeps, type TeamId } from '@rc/teams-domain';
import { InMemoryUserDirectory } from '@rc/teams-domain/testing';
import { teamsMigrations } from './migrations/index.js';
import { teamsSchemas, teamsTables } from './schemas/teams.schemas.js';
import { MikroOrmTeamQueries } from './repositories/mikro-orm-team-queries.js';
import { MikroOrmTeamRepository } from './repositories/mikro-orm-team.repository.js';

const user = (userId: number): TeamActor => ({ userId, isAdmin: false });
const admin: TeamActor = { userId: 1000, isAdmin: true };
const HOUR = 3600_000;

describe('teams persistence (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let clock: FixedClock;
  let deps: TeamDeps;
  let queries: MikroOrmTeamQueries;
  const statements: string[] = [];
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);
  const create = (actor: TeamActor, fields: Record<string, unknown> = { name: 'Fixers' }) => inContext(() => new CreateTeam(deps).execute({ actor, fields }));
  const join = (actor: TeamActor, teamId: TeamId, userId = actor.userId, joinCode?: string) =>
    inContext(() => new JoinOrAddMember(deps).execute({ actor, teamId, userId, joinCode }));
  const remove = (actor: TeamActor, teamId: TeamId, userId = actor.userId) => inContext(() => new RemoveMember(deps).execute({ actor, teamId, userId }));
  const members = async (teamId: number) =>
    (await em.fork().execute<{ user_id: number }[]>('SELECT user_id FROM team_members WHERE team_id = ? ORDER BY user_id', [teamId])).map((r) => r.user_id);
  const ownerOf = async (teamId: number) => (await em.fork().execute<{ owner_id: number | null }[]>('SELECT owner_id FROM teams WHERE id = ?', [teamId]))[0]!.owner_id;
  const counted = async <T>(fn: () => Promise<T>): Promise<{ result: T; queries: number }> => {
    statements.length = 0;
    const result = await inContext(fn);
    return { result, queries: statements.length };
  };

  beforeAll(async () => {
    db = await createTestOrm({ entities: teamsSchemas, migrations: teamsMigrations, onQuery: (sql) => statements.push(sql) });
    em = db.orm.em as EntityManager;
    queries = new MikroOrmTeamQueries(em);
  });
  beforeEach(async () => {
    await db.truncate(teamsTables);
    clock = new FixedClock('2026-05-01T08:00:00Z');
    const users = new InMemoryUserDirectory(new Set([...Array.from({ length: 60 }, (_, i) => i + 1), admin.userId]));
    deps = { teams: new MikroOrmTeamRepository(em), users, clock, uow: new MikroOrmUnitOfWork(em) };
  });
  afterAll(() => db.close());

  it('creates every table and column the schemas map', async () => {
    expect(await schemaDrift(db.orm)).toEqual([]);
  });

  it('round-trips a team with its members, join dates and join code', async () => {
    const team = await create(user(1), { name: 'Fixers', description: 'We fix.', join_code: 'flux' });
    clock.advance(HOUR);
    await join(user(2), team.id, 2, 'flux');
    const loaded = await inContext(() => deps.uow.run(() => deps.teams.findForUpdate(team.id)));
    expect(loaded!.state).toEqual({ id: team.id, name: 'Fixers', description: 'We fix.', ownerId: 1, joinCode: 'flux', createdAt: new Date('2026-05-01T08:00:00Z'), deletedAt: null });
    expect(loaded!.members).toEqual([
      { userId: 1, joinedAt: new Date('2026-05-01T08:00:00Z') },
      { userId: 2, joinedAt: new Date('2026-05-01T09:00:00Z') },
    ]);
    expect(await inContext(() => queries.find(team.id))).toEqual({
      teamId: team.id,
      name: 'Fixers',
      description: 'We fix.',
      ownerId: 1,
      memberIds: [1, 2],
      newMemberSince: new Date('2026-05-01T09:00:00Z'),
    });
  });

  it('takes team ids from their sequence', async () => {
    const a = await create(user(1));
    const b = await create(user(1));
    expect(b.id).toBe(a.id + 1);
  });

  it('stores leaves, the promotion of the earliest member and the deletion of an emptied team', async () => {
    const team = await create(user(5));
    for (const id of [3, 4]) {
      clock.advance(HOUR);
      await join(user(id), team.id);
    }
    await remove(user(5), team.id);
    expect(await ownerOf(team.id)).toBe(3);
    expect(await members(team.id)).toEqual([3, 4]);
    await remove(admin, team.id, 3);
    await remove(user(4), team.id);
    expect(await members(team.id)).toEqual([]);
    const [row] = await em.fork().execute<{ owner_id: number | null; deleted_at: string }[]>('SELECT owner_id, deleted_at FROM teams WHERE id = ?', [team.id]);
    expect(row!.owner_id).toBeNull();
    expect(new Date(row!.deleted_at)).toEqual(clock.now());
    expect(await inContext(() => queries.find(team.id))).toBeNull();
    await expect(join(admin, team.id, 4)).rejects.toBeInstanceOf(TeamNotFoundError);
  });

  it('lists live teams by id, paged, in either order, with newMemberSince, in one query', async () => {
    const quiet = await create(user(1), { name: 'Quiet' });
    const busy = await create(user(1), { name: 'Busy' });
    const gone = await create(user(2), { name: 'Gone' });
    const left = await create(user(1), { name: 'Left' });
    clock.advance(HOUR);
    const since = clock.now();
    await join(user(3), busy.id);
    await join(user(4), left.id);
    await remove(user(4), left.id);
    await remove(user(2), gone.id);
    const ids = (views: { teamId: number }[]) => views.map((v) => v.teamId);
    const all = await counted(() => queries.list({ order: 'ASC' }, { limit: 20, offset: 0 }));
    expect(all.queries).toBe(1);
    expect(ids(all.result)).toEqual([quiet.id, busy.id, left.id]);
    expect(all.result[1]).toMatchObject({ name: 'Busy', ownerId: 1, memberIds: [1, 3], newMemberSince: since });
    expect(ids(await inContext(() => queries.list({ order: 'DESC' }, { limit: 2, offset: 0 })))).toEqual([left.id, busy.id]);
    expect(ids(await inContext(() => queries.list({ order: 'ASC' }, { limit: 2, offset: 1 })))).toEqual([busy.id, left.id]);
    expect(ids(await inContext(() => queries.list({ order: 'ASC', newMemberSince: since }, { limit: 20, offset: 0 })))).toEqual([busy.id]);
    expect(ids(await inContext(() => queries.list({ order: 'ASC', newMemberSince: new Date(since.getTime() + 1000) }, { limit: 20, offset: 0 })))).toEqual([]);
  });

  it('gives the live teams of many users in one query', async () => {
    const a = await create(user(1), { name: 'A' });
    const b = await create(user(2), { name: 'B' });
    const gone = await create(user(1), { name: 'Gone' });
    await join(user(1), b.id);
    await remove(user(1), gone.id);
    const { result, queries: count } = await counted(() => queries.teamIdsOfUsers([1, 2, 3, ...Array.from({ length: 200 }, (_, i) => 1000 + i)]));
    expect(count).toBe(1);
    expect(result).toEqual(
      new Map([
        [1, [a.id, b.id]],
        [2, [b.id]],
      ]),
    );
    expect(await inContext(() => queries.teamIdsOfUsers([]))).toEqual(new Map());
  });

  it('refuses, in the database too, a second membership or a live team whose owner is not a member', async () => {
    const team = await create(user(1));
    await expect(em.fork().execute('INSERT INTO team_members (team_id, user_id, joined_at) VALUES (?, 1, now())', [team.id])).rejects.toThrow(/duplicate key/);
    await expect(em.fork().execute('DELETE FROM team_members WHERE team_id = ?', [team.id])).rejects.toThrow(/teams_owner_is_member/);
    await expect(em.fork().execute('UPDATE teams SET owner_id = NULL WHERE id = ?', [team.id])).rejects.toThrow(/teams_owner_while_live/);
    expect(await members(team.id)).toEqual([1]);
  });

  it('keeps every one of 30 concurrent joins', async () => {
    deps = { ...deps, clock: new SystemClock() };
    const team = await create(user(1));
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => join(user(i + 2), team.id)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await members(team.id)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(await ownerOf(team.id)).toBe(1);
  });

  it('never leaves a team ownerless when the owner and the next in line leave at once with others', async () => {
    deps = { ...deps, clock: new SystemClock() };
    const team = await create(user(1));
    for (let id = 2; id <= 21; id++) {
      await new Promise((r) => setTimeout(r, 2));
      await join(user(id), team.id);
    }
    // The owner and the members who would be promoted next all leave together, and others join.
    const leaving = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const results = await Promise.allSettled([...leaving.map((id) => remove(user(id), team.id)), ...[30, 31, 32].map((id) => join(user(id), team.id))]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const remaining = await members(team.id);
    expect(remaining).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 30, 31, 32]);
    expect(await ownerOf(team.id)).toBe(11);
  });

  it('ends with a deleted team and no members, or a live one with an owner, when everyone leaves while others join', async () => {
    deps = { ...deps, clock: new SystemClock() };
    const team = await create(user(1));
    for (const id of [2, 3, 4, 5]) await join(user(id), team.id);
    const results = await Promise.allSettled([...[1, 2, 3, 4, 5].map((id) => remove(user(id), team.id)), ...[40, 41].map((id) => join(user(id), team.id))]);
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failures.every((f) => f.reason instanceof TeamNotFoundError)).toBe(true);
    const remaining = await members(team.id);
    const owner = await ownerOf(team.id);
    if (remaining.length === 0) expect(owner).toBeNull();
    else expect(remaining).toContain(owner);
    expect(remaining.every((id) => id === 40 || id === 41)).toBe(true);
  });
});
