import { InMemoryUserImages } from '@rc/identity-domain/testing';
import { GetUsers, type User, type UserId } from '@rc/identity-domain';
import type { TeamId, TeamView } from '@rc/teams-domain';
import { IdentityUserSummaries, ReputationStandings, TeamMembershipsOfUsers, UserStandings, type BadgeCounts } from '@rc/identity-http';
import { TeamReader } from '@rc/teams-http';
import type { AppConfig } from '../config/config.js';

const NO_BADGES: BadgeCounts = { bronze: 0, silver: 0, gold: 0, total: 0 };
const user = (id: number, username: string) => ({ id, username, uniqueUsername: username.toLowerCase(), joinedAt: new Date('2026-01-01T00:00:00Z') }) as unknown as User;

/** Active accounts 1, 2 and 3 (4 is disabled: GetUsers leaves it out). */
class FakeGetUsers extends GetUsers {
  calls = 0;
  constructor() {
    super(null as never);
  }
  override async execute(ids: readonly UserId[]): Promise<Map<number, User>> {
    this.calls++;
    const all = new Map([1, 2, 3].map((id) => [id, user(id, `User ${id}`)]));
    return new Map(ids.filter((id) => all.has(id)).map((id) => [id, all.get(id)!]));
  }
}

class FakeReputation extends ReputationStandings {
  calls = 0;
  async of(ids: readonly number[]) {
    this.calls++;
    const points: Record<number, number> = { 1: 10, 2: 250, 3: 5, 4: 1000 };
    return new Map(ids.map((id) => [id, { reputation: points[id] ?? 0, badgeCounts: NO_BADGES }]));
  }
}

class FakeMemberships extends TeamMembershipsOfUsers {
  async of(ids: readonly number[]) {
    return new Map(ids.map((id) => [id, id === 2 ? [7, 8] : [7]]));
  }
}

const view = (teamId: number, memberIds: number[], ownerId = memberIds[0]!): TeamView => ({
  teamId: teamId as TeamId,
  name: `Team ${teamId}`,
  description: '',
  ownerId,
  memberIds,
  newMemberSince: new Date('2026-02-01T00:00:00Z'),
});

describe('TeamReader', () => {
  const config = { publicBaseUrl: 'https://repair.example' } as AppConfig;
  let users: FakeGetUsers;
  let reputation: FakeReputation;
  let reader: TeamReader;

  beforeEach(() => {
    users = new FakeGetUsers();
    reputation = new FakeReputation();
    // Teams read users through identity's published UserSummaries, composed as in the app.
    reader = new TeamReader(new IdentityUserSummaries(users, null as never, new UserStandings(reputation, new FakeMemberships()), config.publicBaseUrl, new InMemoryUserImages()), config);
  });

  it("sums the active members' reputation for each team, with one lookup for the whole page", async () => {
    const bodies = await reader.teams([view(7, [1, 2]), view(8, [2, 3, 4])]);
    expect(bodies.map((b) => b.reputation)).toEqual([260, 255]);
    expect(users.calls).toBe(1);
    expect(reputation.calls).toBe(1);
    expect(bodies[1]).toEqual({
      teamid: 8,
      name: 'Team 8',
      owner: 2,
      reputation: 255,
      image: null,
      url: 'https://repair.example/Team/8/Team+8',
      member_count: 3,
      description: '',
      new_member_since: Date.parse('2026-02-01T00:00:00Z') / 1000,
    });
  });

  it('lists members by user id with their reputation and teams; an inactive account is a placeholder', async () => {
    const members = await reader.members([4, 3, 1, 2]);
    expect(members.map((m) => m.userid)).toEqual([1, 2, 3, 4]);
    expect(members[1]).toMatchObject({ username: 'User 2', reputation: 250, teams: [7, 8], url: 'https://repair.example/User/2/User+2' });
    expect(members[3]).toMatchObject({ userid: 4, username: 'Deleted user', reputation: 0, teams: [] });
    expect(Object.keys(members[0]!)).not.toContain('privileges');
  });

  it('asks nothing for an empty page or an emptied team', async () => {
    expect(await reader.teams([])).toEqual([]);
    expect(await reader.members([])).toEqual([]);
    expect(users.calls + reputation.calls).toBe(0);
  });
});
