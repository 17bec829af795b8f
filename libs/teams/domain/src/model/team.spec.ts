import { InvalidTeamError, NotATeamMemberError, TeamManagerRequiredError, TeamNotFoundError, WrongJoinCodeError } from '../teams.errors.js';
import { Team, type TeamActor, type TeamId, type TeamInput } from './team.js';

const owner: TeamActor = { userId: 10, isAdmin: false };
const alice: TeamActor = { userId: 20, isAdmin: false };
const bob: TeamActor = { userId: 30, isAdmin: false };
const admin: TeamActor = { userId: 1, isAdmin: true };
const t0 = new Date('2026-03-01T10:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

function team(fields: TeamInput = { name: 'Fixers' }): Team {
  return Team.create(7 as TeamId, owner, fields, t0);
}

function violationsOf(fn: () => unknown): { field: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidTeamError);
    return [...(error as InvalidTeamError).violations];
  }
  throw new Error('expected an InvalidTeamError');
}

describe('Team.create', () => {
  it('makes the creator the owner and first member', () => {
    const t = team({ name: '  Fixers  ', description: 'We fix things.', join_code: 'secret' });
    expect(t.state).toEqual({ id: 7, name: 'Fixers', description: 'We fix things.', ownerId: 10, joinCode: 'secret', createdAt: t0, deletedAt: null });
    expect(t.members).toEqual([{ userId: 10, joinedAt: t0 }]);
    expect(t.isNew).toBe(true);
    expect(t.joined).toEqual([{ userId: 10, joinedAt: t0 }]);
    expect(t.newMemberSince).toEqual(t0);
  });

  it('takes no join code and an empty description when they are absent or null', () => {
    expect(team({ name: 'Open' }).state).toMatchObject({ joinCode: null, description: '' });
    expect(team({ name: 'Open', join_code: null, description: null }).state).toMatchObject({ joinCode: null, description: '' });
  });

  it('keeps line breaks in the description', () => {
    expect(team({ name: 'Fixers', description: 'Line one\r\nLine two\tend' }).state.description).toBe('Line one\r\nLine two\tend');
  });

  it.each<[string, TeamInput, string]>([
    ['a missing name', {}, 'name'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a name that is not a string', { name: 42 }, 'name'],
    ['a name over 255 characters', { name: 'x'.repeat(256) }, 'name'],
    ['a name with control characters', { name: 'Fix\u0000ers' }, 'name'],
    ['a name with a line break', { name: 'Fix\ners' }, 'name'],
    ['a description over 2000 characters', { name: 'Fixers', description: 'x'.repeat(2001) }, 'description'],
    ['a description that is not a string', { name: 'Fixers', description: ['x'] }, 'description'],
    ['an empty join code', { name: 'Fixers', join_code: '' }, 'join_code'],
    ['a join code over 64 characters', { name: 'Fixers', join_code: 'c'.repeat(65) }, 'join_code'],
    ['a join code that is not a string', { name: 'Fixers', join_code: 1234 }, 'join_code'],
  ])('refuses %s', (_, fields, field) => {
    expect(violationsOf(() => team(fields)).map((v) => v.field)).toEqual([field]);
  });

  it('lists every broken rule at once', () => {
    expect(violationsOf(() => team({ name: '', description: 5, join_code: '' })).map((v) => v.field)).toEqual(['name', 'description', 'join_code']);
  });

  it('counts characters, not UTF-16 units, against the limits', () => {
    expect(team({ name: '🔧'.repeat(255) }).state.name).toHaveLength(510);
  });
});

describe('Team.join', () => {
  it('lets anyone join an open team by themself, any code ignored', () => {
    const t = team();
    expect(t.join(alice, alice.userId, undefined, at(5))).toBe(true);
    expect(t.join(bob, bob.userId, 'whatever', at(6))).toBe(true);
    expect(t.memberIds).toEqual([10, 20, 30]);
    expect(t.newMemberSince).toEqual(at(6));
  });

  it('needs the right join code to join a coded team by oneself', () => {
    const t = team({ name: 'Fixers', join_code: 'open-sesame' });
    expect(() => t.join(alice, alice.userId, undefined, at(1))).toThrow(WrongJoinCodeError);
    expect(() => t.join(alice, alice.userId, 'OPEN-SESAME', at(1))).toThrow(WrongJoinCodeError);
    expect(() => t.join(alice, alice.userId, '', at(1))).toThrow(WrongJoinCodeError);
    expect(t.hasMember(alice.userId)).toBe(false);
    expect(t.join(alice, alice.userId, 'open-sesame', at(1))).toBe(true);
    expect(t.hasMember(alice.userId)).toBe(true);
  });

  it('lets an Admin join a coded team without the code', () => {
    const t = team({ name: 'Fixers', join_code: 'open-sesame' });
    expect(t.join(admin, admin.userId, undefined, at(1))).toBe(true);
  });

  it('lets the owner and Admins add someone else, without a code', () => {
    const t = team({ name: 'Fixers', join_code: 'open-sesame' });
    expect(t.join(owner, alice.userId, undefined, at(1))).toBe(true);
    expect(t.join(admin, bob.userId, undefined, at(2))).toBe(true);
    expect(t.memberIds).toEqual([10, 20, 30]);
  });

  it('refuses members who are not the owner, and outsiders, adding someone else', () => {
    const t = team();
    t.join(alice, alice.userId, undefined, at(1));
    expect(() => t.join(alice, bob.userId, undefined, at(2))).toThrow(TeamManagerRequiredError);
    expect(() => t.join(bob, 55, undefined, at(2))).toThrow(TeamManagerRequiredError);
    expect(() => t.assertMayAdd(alice, bob.userId, undefined)).toThrow(TeamManagerRequiredError);
    expect(t.memberIds).toEqual([10, 20]);
  });

  it('keeps one membership per user: joining again changes nothing', () => {
    const t = team();
    t.join(alice, alice.userId, undefined, at(1));
    t.markStored();
    expect(t.join(alice, alice.userId, undefined, at(9))).toBe(false);
    expect(t.join(owner, alice.userId, undefined, at(9))).toBe(false);
    expect(t.members).toEqual([{ userId: 10, joinedAt: t0 }, { userId: 20, joinedAt: at(1) }]);
    expect(t.hasChanges).toBe(false);
  });
});

describe('Team.remove', () => {
  function crowded(): Team {
    const t = team();
    t.join(alice, alice.userId, undefined, at(1));
    t.join(bob, bob.userId, undefined, at(2));
    t.markStored();
    return t;
  }

  it('lets a member leave', () => {
    const t = crowded();
    t.remove(alice, alice.userId, at(3));
    expect(t.memberIds).toEqual([10, 30]);
    expect(t.left).toEqual([20]);
    expect(t.teamChanged).toBe(false);
  });

  it('lets the owner and Admins remove anyone', () => {
    const t = crowded();
    t.remove(owner, alice.userId, at(3));
    t.remove(admin, bob.userId, at(4));
    expect(t.memberIds).toEqual([10]);
  });

  it('refuses a member removing someone else', () => {
    const t = crowded();
    expect(() => t.remove(alice, bob.userId, at(3))).toThrow(TeamManagerRequiredError);
    expect(() => t.remove(alice, owner.userId, at(3))).toThrow(TeamManagerRequiredError);
    expect(t.memberIds).toEqual([10, 20, 30]);
  });

  it('says so when the user is not a member', () => {
    const t = crowded();
    expect(() => t.remove(owner, 77, at(3))).toThrow(NotATeamMemberError);
    expect(() => t.remove({ userId: 77, isAdmin: false }, 77, at(3))).toThrow(NotATeamMemberError);
  });

  it('checks the permission before membership', () => {
    expect(() => crowded().remove(alice, 77, at(3))).toThrow(TeamManagerRequiredError);
  });

  it('promotes the earliest remaining member when the owner leaves', () => {
    const t = crowded();
    t.remove(owner, owner.userId, at(3));
    expect(t.state.ownerId).toBe(alice.userId);
    expect(t.teamChanged).toBe(true);
    t.remove(admin, alice.userId, at(4));
    expect(t.state.ownerId).toBe(bob.userId);
  });

  it('promotes by join date, not by user id, and by user id among same-second joins', () => {
    const creator: TeamActor = { userId: 50, isAdmin: false };
    const t = Team.create(1 as TeamId, creator, { name: 'T' }, t0);
    t.join(creator, 40, undefined, at(10));
    t.join(creator, 45, undefined, at(5));
    t.join(creator, 44, undefined, at(5));
    t.remove(creator, 50, at(20));
    expect(t.state.ownerId).toBe(44);
  });

  it('promotes the earliest member whatever order the members were loaded in', () => {
    const t = Team.restore(
      { id: 3 as TeamId, name: 'T', description: '', ownerId: 9, joinCode: null, createdAt: t0, deletedAt: null },
      [{ userId: 8, joinedAt: at(30) }, { userId: 9, joinedAt: t0 }, { userId: 7, joinedAt: at(20) }],
    );
    t.remove({ userId: 9, isAdmin: false }, 9, at(40));
    expect(t.state.ownerId).toBe(7);
  });

  it('deletes the team when its last member leaves; a deleted team is not found', () => {
    const t = team();
    t.markStored();
    t.remove(owner, owner.userId, at(1));
    expect(t.isDeleted).toBe(true);
    expect(t.state).toMatchObject({ ownerId: null, deletedAt: at(1) });
    expect(t.members).toEqual([]);
    expect(t.newMemberSince).toBeNull();
    expect(() => t.join(alice, alice.userId, undefined, at(2))).toThrow(TeamNotFoundError);
    expect(() => t.join(admin, alice.userId, undefined, at(2))).toThrow(TeamNotFoundError);
    expect(() => t.remove(admin, owner.userId, at(2))).toThrow(TeamNotFoundError);
  });

  it('records a join undone before saving as no change at all', () => {
    const t = crowded();
    t.join(owner, 60, undefined, at(5));
    t.remove(owner, 60, at(6));
    expect(t.joined).toEqual([]);
    expect(t.left).toEqual([]);
    expect(t.hasChanges).toBe(false);
  });
});
