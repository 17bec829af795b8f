import { InMemoryUserImages } from '@rc/identity-domain/testing';
import { User, type Email, type UserId } from '@rc/identity-domain';
import { NO_STANDING, ReputationStandings, TeamMembershipsOfUsers, UserStandings, type BadgeCounts, type UserStanding } from './user-standings.js';
import { presentUser } from './user.presenter.js';
import { presentUserSummary } from './user-summary.presenter.js';
import { UserViews } from './user-views.js';

const BASE = 'https://repair.example';

function user(id: number, changes: (u: User) => void = () => undefined): User {
  const u = User.register({
    id: id as UserId,
    email: `user${id}@example.com` as Email,
    username: `Jane ${id}`,
    uniqueUsername: `jane${id}`,
    passwordHash: 'hash',
    joinedAt: new Date('2026-01-01T00:00:00Z'),
  });
  changes(u);
  return u;
}

const standing: UserStanding = { reputation: 1234, badgeCounts: { bronze: 3, silver: 2, gold: 1, total: 6 }, teams: [7, 9] };

describe('presentUser', () => {
  it('takes reputation, badge counts and team ids from the standing given', () => {
    const body = presentUser(user(1), { self: false }, standing);
    expect(body).toMatchObject({ reputation: 1234, badge_counts: { bronze: 3, silver: 2, gold: 1, total: 6 }, teams: [7, 9] });
  });

  it('shows no standing when none is given', () => {
    expect(presentUser(user(1), { self: false })).toMatchObject({ reputation: 0, badge_counts: { bronze: 0, silver: 0, gold: 0, total: 0 }, teams: [] });
  });

  it('copies the standing: changing the body does not change the standing', () => {
    const body = presentUser(user(1), { self: false }, standing);
    body.teams.push(99);
    body.badge_counts.gold = 50;
    expect(standing.teams).toEqual([7, 9]);
    expect(standing.badgeCounts.gold).toBe(1);
    expect(NO_STANDING.teams).toEqual([]);
  });

  it('emits exactly the UserInfo fields, viewer-only ones for the user themself only, and no url', () => {
    const others = presentUser(user(1), { self: false }, standing);
    expect(Object.keys(others).sort()).toEqual(
      [
        'about_raw', 'about_rendered', 'badge_counts', 'certification_count', 'greatest_privilege', 'image', 'join_date', 'langid', 'location',
        'privileges', 'reputation', 'summary', 'teams', 'unique_username', 'userid', 'username',
      ].sort(),
    );
    const self = presentUser(user(1), { self: true }, standing);
    expect(self).toMatchObject({ links: {}, unread_notification_count: 0 });
    expect(presentUser(user(1, (u) => u.assignRole('Admin')), { self: true }).links).toEqual({ manage: '/Manage' });
  });

  it('shows the profile: about as markup and rendered HTML, false when empty', () => {
    expect(presentUser(user(1), { self: false })).toMatchObject({ about_raw: false, about_rendered: false, summary: null, location: null, langid: 'en' });
    const edited = user(1, (u) => u.editProfile({ about: "I fix '''phones'''.", summary: 'Fixer', location: 'Lyon', langid: 'fr' }));
    const body = presentUser(edited, { self: false });
    expect(body).toMatchObject({ about_raw: "I fix '''phones'''.", summary: 'Fixer', location: 'Lyon', langid: 'fr' });
    expect(body.about_rendered).toContain('<strong>phones</strong>');
  });
});

describe('presentUserSummary', () => {
  it('takes reputation and team ids from the standing given, with the profile url and no privileges', () => {
    expect(presentUserSummary(user(5), BASE, standing)).toEqual({
      userid: 5,
      username: 'Jane 5',
      unique_username: 'jane5',
      join_date: 1767225600,
      image: null,
      reputation: 1234,
      url: `${BASE}/User/5/Jane+5`,
      teams: [7, 9],
    });
  });

  it('shows no standing when none is given', () => {
    expect(presentUserSummary(user(5), BASE)).toMatchObject({ reputation: 0, teams: [] });
  });
});

describe('UserViews', () => {
  /** Standing sources that answer from maps and count their calls. */
  class MapReputation extends ReputationStandings {
    calls: number[][] = [];
    constructor(private readonly points: Map<number, { reputation: number; badgeCounts: BadgeCounts }>) {
      super();
    }
    async of(ids: readonly number[]) {
      this.calls.push([...ids]);
      return new Map([...this.points].filter(([id]) => ids.includes(id)));
    }
  }
  class MapTeams extends TeamMembershipsOfUsers {
    calls: number[][] = [];
    constructor(private readonly teams: Map<number, number[]>) {
      super();
    }
    async of(ids: readonly number[]) {
      this.calls.push([...ids]);
      return new Map([...this.teams].filter(([id]) => ids.includes(id)));
    }
  }

  function views() {
    const reputation = new MapReputation(new Map([[1, { reputation: 50, badgeCounts: { bronze: 1, silver: 0, gold: 0, total: 1 } }]]));
    const teams = new MapTeams(new Map([[2, [4]]]));
    return { reputation, teams, views: new UserViews(new UserStandings(reputation, teams), BASE, new InMemoryUserImages()) };
  }

  it('builds a list of summaries with one batch of standings for all of them', async () => {
    const { reputation, teams, views: v } = views();
    const bodies = await v.summaries([user(1), user(2), user(3)]);
    expect(bodies.map((b) => [b.userid, b.reputation, b.teams])).toEqual([
      [1, 50, []],
      [2, 0, [4]],
      [3, 0, []],
    ]);
    expect(reputation.calls).toEqual([[1, 2, 3]]);
    expect(teams.calls).toEqual([[1, 2, 3]]);
  });

  it('asks nothing for an empty list', async () => {
    const { reputation, views: v } = views();
    expect(await v.summaries([])).toEqual([]);
    expect(reputation.calls).toEqual([]);
  });

  it('builds a UserInfo with its standing', async () => {
    const { views: v } = views();
    expect(await v.info(user(1), { self: true })).toMatchObject({ userid: 1, reputation: 50, badge_counts: { total: 1 }, teams: [], links: {} });
    expect(await v.info(user(2), { self: false })).toMatchObject({ userid: 2, reputation: 0, teams: [4] });
  });
});
