import type { Brand, Violation } from '@rc/shared-kernel';
import { InvalidTeamError, NotATeamMemberError, TeamManagerRequiredError, TeamNotFoundError, WrongJoinCodeError } from '../teams.errors.js';

export type TeamId = Brand<number, 'TeamId'>;

/** One user's membership of a team: at most one per user and team. */
export interface Membership {
  readonly userId: number;
  readonly joinedAt: Date;
}

export interface TeamState {
  readonly id: TeamId;
  readonly name: string;
  readonly description: string;
  /** The owner, always one of the members while the team lives; `null` once it is deleted. */
  readonly ownerId: number | null;
  /** What a user must give to join by themself; `null`: anyone may join. Never shown to clients. */
  readonly joinCode: string | null;
  readonly createdAt: Date;
  /** Set when the last member leaves: the team is gone (soft delete: the id is never reused). */
  readonly deletedAt: Date | null;
}

/** Who acts on a team: a signed-in user, an Admin or not. */
export interface TeamActor {
  readonly userId: number;
  readonly isAdmin: boolean;
}

/** The fields of a new team as a client sent them (checked by `Team.create`). */
export interface TeamInput {
  readonly name?: unknown;
  readonly description?: unknown;
  readonly join_code?: unknown;
}

export const TEAM_NAME_MAX = 255;
export const TEAM_DESCRIPTION_MAX = 2000;
export const JOIN_CODE_MAX = 64;
// Control characters (C0, DEL, C1) and the Unicode line/paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Earliest member first; ties (same second) by user id, so "the earliest" is always one member. */
const byJoinDate = (a: Membership, b: Membership) => a.joinedAt.getTime() - b.joinedAt.getTime() || a.userId - b.userId;

/**
 * A team: a named group of users with an owner. Invariants, kept by every method:
 * - each user is a member at most once;
 * - while the team lives it has at least one member, and its owner is one of them;
 * - removing the owner makes the earliest remaining member the owner;
 * - removing the last member deletes the team (for good: it cannot be joined again).
 * Changes are recorded (`joined`, `left`) for the repository, which stores them inside the unit
 * of work that loaded the team locked, so concurrent joins and leaves apply one after the other.
 */
export class Team {
  private readonly memberList: Membership[];
  private readonly joinedNow: Membership[] = [];
  private readonly leftNow: number[] = [];
  private rowChanged = false;
  private fresh = false;

  private constructor(
    private readonly current: TeamState,
    members: readonly Membership[],
  ) {
    this.memberList = [...members].sort(byJoinDate);
  }

  static restore(state: TeamState, members: readonly Membership[]): Team {
    return new Team({ ...state }, members);
  }

  /** A new team; its creator is the owner and first member. */
  static create(id: TeamId, creator: TeamActor, input: TeamInput, now: Date): Team {
    const violations: Violation[] = [];
    const name = readText(input.name, 'name', TEAM_NAME_MAX, violations, true);
    const description = input.description === undefined || input.description === null ? '' : readText(input.description, 'description', TEAM_DESCRIPTION_MAX, violations, false, true);
    const joinCode = input.join_code === undefined || input.join_code === null ? null : (readText(input.join_code, 'join_code', JOIN_CODE_MAX, violations, true) ?? null);
    if (violations.length) throw new InvalidTeamError(violations);
    const team = new Team({ id, name: name!, description: description ?? '', ownerId: creator.userId, joinCode, createdAt: now, deletedAt: null }, []);
    team.fresh = true;
    team.rowChanged = true;
    team.add(creator.userId, now);
    return team;
  }

  get id(): TeamId {
    return this.current.id;
  }

  get state(): TeamState {
    return this.current;
  }

  get isDeleted(): boolean {
    return this.current.deletedAt !== null;
  }

  /** The members, earliest first. */
  get members(): readonly Membership[] {
    return this.memberList;
  }

  /** Member ids in increasing order (the order the API lists members in). */
  get memberIds(): number[] {
    return this.memberList.map((m) => m.userId).sort((a, b) => a - b);
  }

  /** When the newest member joined; `null` for a deleted team. */
  get newMemberSince(): Date | null {
    const last = this.memberList[this.memberList.length - 1];
    return last ? last.joinedAt : null;
  }

  hasMember(userId: number): boolean {
    return this.memberList.some((m) => m.userId === userId);
  }

  /** Memberships added since the team was loaded (or created). */
  get joined(): readonly Membership[] {
    return this.joinedNow;
  }

  /** Users whose membership ended since the team was loaded. */
  get left(): readonly number[] {
    return this.leftNow;
  }

  /** Whether the team row itself (owner, deletion) changed, or the team is new. */
  get teamChanged(): boolean {
    return this.rowChanged;
  }

  get isNew(): boolean {
    return this.fresh;
  }

  get hasChanges(): boolean {
    return this.rowChanged || this.joinedNow.length > 0 || this.leftNow.length > 0;
  }

  /**
   * Whether `actor` may make `userId` a member: anyone may join by themself, with the team's join
   * code when it has one (an Admin needs none); adding someone else takes the owner or an Admin.
   */
  assertMayAdd(actor: TeamActor, userId: number, joinCode: string | undefined): void {
    this.assertLive();
    if (actor.userId === userId) {
      if (this.current.joinCode !== null && !actor.isAdmin && joinCode !== this.current.joinCode) throw new WrongJoinCodeError();
      return;
    }
    if (!this.mayManage(actor)) throw new TeamManagerRequiredError();
  }

  /** Makes `userId` a member (see `assertMayAdd`). Already a member: nothing changes, `false`. */
  join(actor: TeamActor, userId: number, joinCode: string | undefined, now: Date): boolean {
    this.assertMayAdd(actor, userId, joinCode);
    if (this.hasMember(userId)) return false;
    this.add(userId, now);
    return true;
  }

  /**
   * Ends `userId`'s membership: the member themself, the owner or an Admin may. The owner leaving
   * hands the team to the earliest remaining member; the last member leaving deletes the team.
   */
  remove(actor: TeamActor, userId: number, now: Date): void {
    this.assertLive();
    if (actor.userId !== userId && !this.mayManage(actor)) throw new TeamManagerRequiredError();
    const index = this.memberList.findIndex((m) => m.userId === userId);
    if (index < 0) throw new NotATeamMemberError();
    this.memberList.splice(index, 1);
    const pending = this.joinedNow.findIndex((m) => m.userId === userId);
    if (pending >= 0) this.joinedNow.splice(pending, 1);
    else this.leftNow.push(userId);
    if (this.memberList.length === 0) {
      Object.assign(this.current, { ownerId: null, deletedAt: now });
      this.rowChanged = true;
    } else if (this.current.ownerId === userId) {
      Object.assign(this.current, { ownerId: this.memberList[0]!.userId });
      this.rowChanged = true;
    }
  }

  /** Called by the repository once the changes are stored. */
  markStored(): void {
    this.joinedNow.length = 0;
    this.leftNow.length = 0;
    this.rowChanged = false;
    this.fresh = false;
  }

  /** The owner or an Admin (who may change the team's repair services, for one). */
  mayManage(actor: TeamActor): boolean {
    return actor.isAdmin || actor.userId === this.current.ownerId;
  }

  private assertLive(): void {
    if (this.isDeleted) throw new TeamNotFoundError();
  }

  private add(userId: number, now: Date): void {
    const membership = { userId, joinedAt: now };
    this.memberList.push(membership);
    this.memberList.sort(byJoinDate);
    this.joinedNow.push(membership);
  }
}

function readText(value: unknown, field: string, max: number, violations: Violation[], required: boolean, multiline = false): string | undefined {
  if (typeof value !== 'string') {
    violations.push({ field, message: `${field} must be a string` });
    return undefined;
  }
  const text = value.trim();
  if (required && !text) {
    violations.push({ field, message: `${field} must not be empty` });
    return undefined;
  }
  if ([...text].length > max) {
    violations.push({ field, message: `${field} must be at most ${max} characters` });
    return undefined;
  }
  const control = multiline ? text.replace(/[\r\n\t]/g, '') : text;
  if (CONTROL.test(control)) {
    violations.push({ field, message: `${field} may not contain control characters` });
    return undefined;
  }
  return text;
}
