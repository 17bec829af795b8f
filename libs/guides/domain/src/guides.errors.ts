import { ConflictError, NotFoundError, PermissionDeniedError, RuleViolationError, type Violation } from '@rc/shared-kernel';

export class GuideNotFoundError extends NotFoundError {
  readonly code = 'GUIDES.GUIDE_NOT_FOUND';
  constructor() {
    super('Guide not found');
  }
}

export class StepNotFoundError extends NotFoundError {
  readonly code = 'GUIDES.STEP_NOT_FOUND';
  constructor() {
    super('Step not found');
  }
}

export class GuideTagNotFoundError extends NotFoundError {
  readonly code = 'GUIDES.TAG_NOT_FOUND';
  constructor() {
    super('Tag not found');
  }
}

export class RevisionNotFoundError extends NotFoundError {
  readonly code = 'GUIDES.REVISION_NOT_FOUND';
  constructor() {
    super('Revision not found');
  }
}

/** The viewer may not see this guide (private, or an old revision without the privilege). */
export class GuidePrivateError extends PermissionDeniedError {
  readonly code = 'GUIDES.GUIDE_PRIVATE';
  constructor() {
    super('Guide is private.');
  }
}

export class NotGuideEditorError extends PermissionDeniedError {
  readonly code = 'GUIDES.NOT_EDITOR';
  constructor(message = 'Insufficient privileges') {
    super(message);
  }
}

export class ModeratorRequiredError extends PermissionDeniedError {
  readonly code = 'GUIDES.MODERATOR_REQUIRED';
  override readonly requiredPrivileges = ['Admin'] as const;
  constructor() {
    super('Insufficient privileges');
  }
}

/** The caller's `revisionid` is not the current one: the body of the answer is the current version. */
export class StaleGuideRevisionError extends ConflictError {
  readonly code = 'GUIDES.STALE_REVISION';
  constructor(readonly guideId: number) {
    super('Revision conflict - please refresh and try again');
  }
}

export class StaleStepRevisionError extends ConflictError {
  readonly code = 'GUIDES.STALE_STEP_REVISION';
  constructor(
    readonly guideId: number,
    readonly stepId: number,
    /** The language of the write, when it was a translation's (the body is the step in that language). */
    readonly langid?: string,
  ) {
    super('Revision conflict - please refresh and try again');
  }
}

export class InvalidGuideError extends RuleViolationError {
  readonly code = 'GUIDES.INVALID_GUIDE';
  constructor(violations: readonly Violation[]) {
    super(violations.map((v) => v.message).join('; '), violations);
  }
}

export class GuideTeamNotFoundError extends NotFoundError {
  readonly code = 'GUIDES.TEAM_NOT_FOUND';
  constructor() {
    super('Team not found');
  }
}

/**
 * A write in a language other than the guide's own named a stale `revisionid` (the translation's,
 * or the source's when the language has no translation yet): the body is the guide as that
 * language shows it.
 */
export class StaleGuideTranslationError extends ConflictError {
  readonly code = 'GUIDES.STALE_TRANSLATION_REVISION';
  constructor(
    readonly guideId: number,
    readonly langid: string,
  ) {
    super('Revision conflict - please refresh and try again');
  }
}
