import { NotFoundError, PermissionDeniedError, RuleViolationError, type Violation } from '@rc/shared-kernel';

/** No such team, or a team that was deleted when its last member left. */
export class TeamNotFoundError extends NotFoundError {
  readonly code = 'TEAMS.TEAM_NOT_FOUND';
  constructor() {
    super('Team not found');
  }
}

/** The user to add is not an active account. */
export class TeamUserNotFoundError extends NotFoundError {
  readonly code = 'TEAMS.USER_NOT_FOUND';
  constructor() {
    super('User not found');
  }
}

/** The user to remove does not belong to the team. */
export class NotATeamMemberError extends NotFoundError {
  readonly code = 'TEAMS.NOT_A_MEMBER';
  constructor() {
    super('User is not a member of this team');
  }
}

/** Joining a team that has a join code, with a wrong code or none. */
export class WrongJoinCodeError extends PermissionDeniedError {
  readonly code = 'TEAMS.WRONG_JOIN_CODE';
  constructor() {
    super('This team needs the right join_code to join');
  }
}

/** Adding or removing someone else: only the team's owner or an Admin may. */
export class TeamManagerRequiredError extends PermissionDeniedError {
  readonly code = 'TEAMS.MANAGER_REQUIRED';
  constructor(message = 'Only the team owner or an Admin may add or remove other members') {
    super(message);
  }
}

/** A repair service the team does not list. */
export class RepairServiceNotFoundError extends NotFoundError {
  readonly code = 'TEAMS.REPAIR_SERVICE_NOT_FOUND';
  constructor() {
    super('Repair service not found');
  }
}

export class InvalidTeamError extends RuleViolationError {
  readonly code = 'TEAMS.INVALID_TEAM';
  constructor(violations: readonly Violation[]) {
    super(violations.map((v) => v.message).join('; '), violations);
  }
}
