/**
 * The categories every domain error belongs to. The domain knows categories, never HTTP status
 * codes: the API's exception filter holds the one table that maps a category to a status.
 */
export abstract class DomainError extends Error {
  /** A stable, namespaced code such as `IDENTITY.INVALID_LOGIN`. */
  abstract readonly code: string;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request is malformed: bad parameters, missing app id, unreadable input. */
export abstract class InvalidInputError extends DomainError {}

/** No valid credentials: missing, unknown, expired or revoked token; wrong password. */
export abstract class AuthenticationError extends DomainError {}

/** The caller is known but may not do this. */
export abstract class PermissionDeniedError extends DomainError {
  /** Privileges that would have allowed the operation, when there are such. */
  readonly requiredPrivileges: readonly string[] = [];
}

/** The resource does not exist (or is not offered by this deployment). */
export abstract class NotFoundError extends DomainError {}

/** The operation exists but cannot be applied to this resource. */
export abstract class OperationNotAllowedError extends DomainError {}

/** The state changed under the caller: a stale revision or a uniqueness clash. */
export abstract class ConflictError extends DomainError {}

export interface Violation {
  /** The input field at fault (dotted path for nested input). */
  readonly field: string;
  readonly message: string;
  /** Position in a list (a step, a line) when the field is one item of many. */
  readonly index?: number;
}

/** Well-formed input that breaks a business rule. Carries one entry per broken rule. */
export abstract class RuleViolationError extends DomainError {
  constructor(
    message: string,
    readonly violations: readonly Violation[],
  ) {
    super(message);
  }
}

/** The caller must slow down; `retryAfterSeconds` says for how long. */
export abstract class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * The service cannot take this request now (it is saturated, or a resource it needs is away); the
 * same request may succeed later. `retryAfterSeconds` says when to try again.
 */
export abstract class ServiceUnavailableError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A generic rule violation for input validated outside an aggregate (request shapes, parameters). */
export class ValidationFailedError extends RuleViolationError {
  readonly code = 'SHARED.VALIDATION_FAILED';
}

/** A generic malformed-parameter error (pagination, ids). */
export class InvalidParameterError extends InvalidInputError {
  readonly code = 'SHARED.INVALID_PARAMETER';
}
