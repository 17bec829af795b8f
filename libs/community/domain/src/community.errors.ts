import { NotFoundError, PermissionDeniedError, RuleViolationError, type Violation } from '@rc/shared-kernel';

export class CommentNotFoundError extends NotFoundError {
  readonly code = 'COMMUNITY.COMMENT_NOT_FOUND';
  constructor() {
    super('Comment not found');
  }
}

/** The guide, step, wiki page or story a comment is posted on does not exist. */
export class CommentTargetNotFoundError extends NotFoundError {
  readonly code = 'COMMUNITY.TARGET_NOT_FOUND';
  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** Comments of a guide (or its steps) the viewer may not see: the guide is private. */
export class PrivateCommentTargetError extends PermissionDeniedError {
  readonly code = 'COMMUNITY.TARGET_PRIVATE';
  constructor() {
    super('Guide is private.');
  }
}

/** Editing or deleting someone else's comment (or editing one's own after the edit window). */
export class CommentChangeForbiddenError extends PermissionDeniedError {
  readonly code = 'COMMUNITY.COMMENT_CHANGE_FORBIDDEN';
  override readonly requiredPrivileges = ['Admin'];
  constructor(message: string) {
    super(message);
  }
}

export class InvalidCommentError extends RuleViolationError {
  readonly code = 'COMMUNITY.INVALID_COMMENT';
  constructor(violations: readonly Violation[]) {
    super(violations.map((v) => v.message).join('; '), violations);
  }
}

export class StoryNotFoundError extends NotFoundError {
  readonly code = 'COMMUNITY.STORY_NOT_FOUND';
  constructor() {
    super('Story not found');
  }
}

/** Editing a story that is not one's own (or, for anyone but an Admin, one that does not exist). */
export class StoryChangeForbiddenError extends PermissionDeniedError {
  readonly code = 'COMMUNITY.STORY_CHANGE_FORBIDDEN';
  override readonly requiredPrivileges = ['Admin'];
  constructor() {
    super('Only the author of a story or an Admin may edit it');
  }
}

export class InvalidStoryError extends RuleViolationError {
  readonly code = 'COMMUNITY.INVALID_STORY';
  constructor(violations: readonly Violation[]) {
    super(violations.map((v) => v.message).join('; '), violations);
  }
}
