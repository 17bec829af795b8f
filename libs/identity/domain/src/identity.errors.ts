import {
  AuthenticationError,
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  RuleViolationError,
  ServiceUnavailableError,
  type Violation,
} from '@rc/shared-kernel';

/** Wrong email or password. The message is the same whether or not the email has an account. */
export class InvalidLoginError extends AuthenticationError {
  readonly code = 'IDENTITY.INVALID_LOGIN';
  constructor() {
    super('Invalid login');
  }
}

/** No token, or a token that is malformed, unknown, expired or revoked. */
export class AuthenticationRequiredError extends AuthenticationError {
  readonly code = 'IDENTITY.AUTHENTICATION_REQUIRED';
  constructor(message = 'Authentication required') {
    super(message);
  }
}

export class InvalidAppIdError extends InvalidInputError {
  readonly code = 'IDENTITY.INVALID_APP_ID';
  constructor() {
    super('Invalid app id');
  }
}

export class AdminRequiredError extends PermissionDeniedError {
  readonly code = 'IDENTITY.ADMIN_REQUIRED';
  override readonly requiredPrivileges = ['Admin'] as const;
  constructor() {
    super('Insufficient privileges');
  }
}

export class UserNotFoundError extends NotFoundError {
  readonly code = 'IDENTITY.USER_NOT_FOUND';
  constructor() {
    super('User not found');
  }
}

export class AppIdNotFoundError extends NotFoundError {
  readonly code = 'IDENTITY.APP_ID_NOT_FOUND';
  constructor(appId: string) {
    super(`App id '${appId}' is not registered`);
  }
}

export class AppIdAlreadyRegisteredError extends ConflictError {
  readonly code = 'IDENTITY.APP_ID_EXISTS';
  constructor(appId: string) {
    super(`App id '${appId}' is already registered`);
  }
}

/** Registration or profile input that breaks the account rules (one violation per field). */
export class InvalidAccountDataError extends RuleViolationError {
  readonly code = 'IDENTITY.INVALID_ACCOUNT_DATA';
  constructor(violations: readonly Violation[]) {
    super(violations.map((v) => v.message).join('; '), violations);
  }
}

export class InvalidResetCodeError extends RuleViolationError {
  readonly code = 'IDENTITY.INVALID_RESET_CODE';
  constructor() {
    super('The password reset code is invalid, used or expired', [
      { field: 'code', message: 'The password reset code is invalid, used or expired' },
    ]);
  }
}

export class TooManyAttemptsError extends RateLimitedError {
  readonly code = 'IDENTITY.TOO_MANY_ATTEMPTS';
  constructor(retryAfterSeconds: number) {
    super('Rate limit exceeded. Please try again later.', retryAfterSeconds);
  }
}

/** Every password-hashing slot is busy and the queue before them is full: try again shortly. */
export class PasswordHashingBusyError extends ServiceUnavailableError {
  readonly code = 'IDENTITY.PASSWORD_HASHING_BUSY';
  constructor() {
    super('The service is busy. Please try again shortly.', 1);
  }
}

/** User lists stop at an offset of 1000, as in the original API. */
export class UserListOffsetTooLargeError extends RuleViolationError {
  readonly code = 'IDENTITY.USER_LIST_OFFSET_TOO_LARGE';
  constructor(max: number) {
    super(`Offset must be <= ${max}`, [{ field: 'offset', message: `Offset must be <= ${max}` }]);
  }
}
