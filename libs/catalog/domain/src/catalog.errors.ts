import { ConflictError, NotFoundError, PermissionDeniedError, RuleViolationError, type Violation } from '@rc/shared-kernel';

export class WikiNotFoundError extends NotFoundError {
  readonly code = 'CATALOG.WIKI_NOT_FOUND';
  constructor(message = 'Wiki not found') {
    super(message);
  }
}

export class WikiRevisionNotFoundError extends NotFoundError {
  readonly code = 'CATALOG.REVISION_NOT_FOUND';
  constructor() {
    super('Revision not found');
  }
}

/** Wiki pages are written by Admins (the privilege the original calls "wiki editing"). */
export class WikiEditorRequiredError extends PermissionDeniedError {
  readonly code = 'CATALOG.EDITOR_REQUIRED';
  override readonly requiredPrivileges = ['Admin'] as const;
  constructor() {
    super('Insufficient privileges');
  }
}

export class StaleWikiRevisionError extends ConflictError {
  readonly code = 'CATALOG.STALE_REVISION';
  constructor(
    readonly namespace: string,
    readonly title: string,
  ) {
    super('Revision conflict - please refresh and try again');
  }
}

export class InvalidWikiError extends RuleViolationError {
  readonly code = 'CATALOG.INVALID_WIKI';
  constructor(violations: readonly Violation[]) {
    super(violations.map((v) => v.message).join('; '), violations);
  }
}

/** A write in another language than the page's own named a stale `revisionid`: the body is the page as that language shows it. */
export class StaleWikiTranslationError extends ConflictError {
  readonly code = 'CATALOG.STALE_TRANSLATION_REVISION';
  constructor(
    readonly namespace: string,
    readonly title: string,
    readonly langid: string,
  ) {
    super('Revision conflict - please refresh and try again');
  }
}
