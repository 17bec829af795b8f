import { admin, alice, bob, carol, owner, teamsTestBed } from '../testing/index.js';
import { InvalidTeamError, NotATeamMemberError, TeamManagerRequiredError, TeamNotFoundError, TeamUserNotFoundError, WrongJoinCodeError } from '../teams.errors.js';
import type { TeamId } from '../model/team.js';

const page = { limit: 20, offset: 0 };
const HOUR = 3600_000;

describe('CreateTeam', () => {
  it('stores the team with its creator as owner and only member', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam(alice, { name: 'Solderers', description: 'Irons at the ready', join_code: 'flux' });
    expect(await bed.view.execute(team.id)).toEqual({
      teamId: team.id,
      name: 'Solderers',
      description: 'Irons at the ready',
      ownerId: alice.userId,
      memberIds: [alice.userId],
      newMemberSince: bed.clock.now(),
    });
    expect(team.hasChanges).toBe(false);
  });

  it('stores nothing when the input breaks a rule', async () => {
    const bed = teamsTestBed();
    await expect(bed.createTeam(alice, { name: '' })).rejects.toBeInstanceOf(InvalidTeamError);
    expect(bed.store.teams.size).toBe(0);
  });

  it('gives each team a new id', async () => {
    const bed = teamsTestBed();
    const a = await bed.createTeam(owner, { name: 'A' });
    const b = await bed.createTeam(owner, { name: 'A' });
    expect(b.id).not.toBe(a.id);
  });
});

describe('JoinOrAddMember', () => {
  it('answers the team with its members once joined', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam(owner, { name: 'Open' });
    bed.clock.advance(HOUR);
    const after = await bed.join(alice, team.id);
    expect(after.memberIds).toEqual([owner.userId, alice.userId]);
    expect((await bed.view.execute(team.id)).memberIds).toEqual([owner.userId, alice.userId]);
    expect((await bed.view.execute(team.id)).newMemberSince).toEqual(bed.clock.now());
  });

  it('refuses a wrong or missing join code and stores nothing', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam(owner, { name: 'Coded', join_code: 'c0de' });
    await expect(bed.join(alice, team.id, alice.userId, 'nope')).rejects.toBeInstanceOf(WrongJoinCodeError);
    await expect(bed.join(alice, team.id)).rejects.toBeInstanceOf(WrongJoinCodeError);
    expect((await bed.view.execute(team.id)).memberIds).toEqual([owner.userId]);
    await bed.join(alice, team.id, alice.userId, 'c0de');
    expect((await bed.view.execute(team.id)).memberIds).toEqual([owner.userId, alice.userId]);
  });

  it('lets the owner and Admins add others, and nobody else', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam(owner, { name: 'Coded', join_code: 'c0de' });
    await bed.join(owner, team.id, alice.userId);
    await bed.join(admin, team.id, bob.userId);
    await expect(bed.join(alice, team.id, carol.userId)).rejects.toBeInstanceOf(TeamManagerRequiredError);
    expect((await bed.view.execute(team.id)).memberIds).toEqual([owner.userId, alice.userId, bob.userId]);
  });

  it('answers not found for an unknown team or user', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam();
    await expect(bed.join(alice, 999 as TeamId)).rejects.toBeInstanceOf(TeamNotFoundError);
    await expect(bed.join(owner, team.id, 12345)).rejects.toBeInstanceOf(TeamUserNotFoundError);
    await expect(bed.join(admin, team.id, 12345)).rejects.toBeInstanceOf(TeamUserNotFoundError);
  });

  it('checks the permission before telling whether a user exists', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam();
    await expect(bed.join(alice, team.id, 12345)).rejects.toBeInstanceOf(TeamManagerRequiredError);
  });

  it('leaves an existing membership and its join date as they are', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam();
    await bed.join(alice, team.id);
    const joinedAt = bed.clock.now();
    bed.clock.advance(HOUR);
    await bed.join(alice, team.id);
    await bed.join(owner, team.id, alice.userId);
    expect(bed.store.teams.get(team.id)!.members).toEqual([
      { userId: owner.userId, joinedAt },
      { userId: alice.userId, joinedAt },
    ]);
  });

  it('does not revive a deleted team', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam();
    await bed.remove(owner, team.id);
    await expect(bed.join(owner, team.id)).rejects.toBeInstanceOf(TeamNotFoundError);
    await expect(bed.join(admin, team.id, alice.userId)).rejects.toBeInstanceOf(TeamNotFoundError);
  });
});

describe('RemoveMember', () => {
  async function fourMembers() {
    const bed = teamsTestBed();
    const team = await bed.createTeam(owner, { name: 'Four' });
    for (const user of [alice, bob, carol]) {
      bed.clock.advance(HOUR);
      await bed.join(user, team.id);
    }
    return { bed, team };
  }

  it('lets members leave and the owner or an Admin remove anyone', async () => {
    const { bed, team } = await fourMembers();
    await bed.remove(alice, team.id);
    await bed.remove(owner, team.id, bob.userId);
    const after = await bed.remove(admin, team.id, carol.userId);
    expect(after.memberIds).toEqual([owner.userId]);
    expect((await bed.view.execute(team.id)).memberIds).toEqual([owner.userId]);
  });

  it('refuses a member removing another one', async () => {
    const { bed, team } = await fourMembers();
    await expect(bed.remove(alice, team.id, bob.userId)).rejects.toBeInstanceOf(TeamManagerRequiredError);
    expect((await bed.view.execute(team.id)).memberIds).toHaveLength(4);
  });

  it('answers not found for an unknown team, or a user who is not a member', async () => {
    const { bed, team } = await fourMembers();
    await expect(bed.remove(alice, 999 as TeamId)).rejects.toBeInstanceOf(TeamNotFoundError);
    await expect(bed.remove(owner, team.id, 12345)).rejects.toBeInstanceOf(NotATeamMemberError);
  });

  it('hands the team to the earliest remaining member when the owner leaves', async () => {
    const { bed, team } = await fourMembers();
    await bed.remove(owner, team.id);
    expect((await bed.view.execute(team.id)).ownerId).toBe(alice.userId);
    await bed.remove(admin, team.id, alice.userId);
    expect((await bed.view.execute(team.id)).ownerId).toBe(bob.userId);
    // The new owner may now manage the team.
    await bed.remove(bob, team.id, carol.userId);
    expect((await bed.view.execute(team.id)).memberIds).toEqual([bob.userId]);
  });

  it('deletes an emptied team: it is neither shown nor listed, and its members have no team', async () => {
    const { bed, team } = await fourMembers();
    const other = await bed.createTeam(alice, { name: 'Other' });
    for (const user of [alice, bob, carol, owner]) await bed.remove(user, team.id);
    expect(bed.store.teams.get(team.id)!.state.deletedAt).toEqual(bed.clock.now());
    await expect(bed.view.execute(team.id)).rejects.toBeInstanceOf(TeamNotFoundError);
    expect((await bed.list.execute({ filter: { order: 'ASC' }, page })).map((t) => t.teamId)).toEqual([other.id]);
    expect(await bed.queries.teamIdsOfUsers([owner.userId, alice.userId])).toEqual(new Map([[alice.userId, [other.id]]]));
    await expect(bed.remove(admin, team.id, owner.userId)).rejects.toBeInstanceOf(TeamNotFoundError);
  });
});

describe('ListTeams and ViewTeam', () => {
  it('lists live teams by id, either way, paged', async () => {
    const bed = teamsTestBed();
    const ids = [];
    for (const name of ['A', 'B', 'C', 'D']) ids.push((await bed.createTeam(owner, { name })).id);
    const list = (order: 'ASC' | 'DESC', limit: number, offset: number) => bed.list.execute({ filter: { order }, page: { limit, offset } }).then((l) => l.map((t) => t.teamId));
    expect(await list('ASC', 20, 0)).toEqual(ids);
    expect(await list('ASC', 2, 1)).toEqual(ids.slice(1, 3));
    expect(await list('DESC', 2, 0)).toEqual([ids[3], ids[2]]);
  });

  it('keeps, with newMemberSince, the teams with a current member who joined since then', async () => {
    const bed = teamsTestBed();
    const quiet = await bed.createTeam(owner, { name: 'Quiet' });
    const busy = await bed.createTeam(owner, { name: 'Busy' });
    const left = await bed.createTeam(owner, { name: 'Left' });
    bed.clock.advance(HOUR);
    const since = bed.clock.now();
    await bed.join(alice, busy.id);
    await bed.join(bob, left.id);
    await bed.remove(bob, left.id);
    const listed = await bed.list.execute({ filter: { order: 'ASC', newMemberSince: since }, page });
    expect(listed.map((t) => t.teamId)).toEqual([busy.id]);
    expect(listed[0]!.newMemberSince).toEqual(since);
    expect((await bed.list.execute({ filter: { order: 'ASC', newMemberSince: new Date(since.getTime() - HOUR) }, page })).map((t) => t.teamId)).toEqual([quiet.id, busy.id, left.id]);
  });

  it('shows members in increasing id order whatever the join order', async () => {
    const bed = teamsTestBed();
    const team = await bed.createTeam(carol, { name: 'Reverse' });
    await bed.join(bob, team.id);
    await bed.join(alice, team.id);
    expect((await bed.view.execute(team.id)).memberIds).toEqual([alice.userId, bob.userId, carol.userId]);
  });

  it('gives the teams of many users at once', async () => {
    const bed = teamsTestBed();
    const a = await bed.createTeam(alice, { name: 'A' });
    const b = await bed.createTeam(bob, { name: 'B' });
    await bed.join(alice, b.id);
    expect(await bed.queries.teamIdsOfUsers([alice.userId, bob.userId, carol.userId])).toEqual(
      new Map([
        [alice.userId, [a.id, b.id]],
        [bob.userId, [b.id]],
      ]),
    );
  });
});
