import { ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError, RateLimitedError, RuleViolationError, type Violation } from '@rc/shared-kernel';

/** No such image (or one removed for good), or one in another user's library where only one's own counts. */
export class ImageNotFoundError extends NotFoundError {
  readonly code = 'MEDIA.IMAGE_NOT_FOUND';
  constructor() {
    super('Image not found');
  }
}

export class VideoNotFoundError extends NotFoundError {
  readonly code = 'MEDIA.VIDEO_NOT_FOUND';
  constructor() {
    super('Video not found');
  }
}

export class EmbedNotFoundError extends NotFoundError {
  readonly code = 'MEDIA.EMBED_NOT_FOUND';
  constructor() {
    super('Embed not found');
  }
}

export class DocumentNotFoundError extends NotFoundError {
  readonly code = 'MEDIA.DOCUMENT_NOT_FOUND';
  constructor() {
    super('Document not found');
  }
}

/** No rotate job with this id among the caller's. */
export class RotateJobNotFoundError extends NotFoundError {
  readonly code = 'MEDIA.ROTATE_JOB_NOT_FOUND';
  constructor() {
    super('Rotate job not found');
  }
}

/** The media exists but the viewer may not see it: not theirs, not an editor, not in content they can view. */
export class MediaNotViewableError extends PermissionDeniedError {
  readonly code = 'MEDIA.NOT_VIEWABLE';
  constructor(kind: string) {
    super(`You do not have permission to view this ${kind}`);
  }
}

/** The client chose a rotate job id it already used. */
export class RotateJobIdInUseError extends ConflictError {
  readonly code = 'MEDIA.ROTATE_JOB_ID_IN_USE';
  constructor(readonly jobId: string) {
    super(`Rotate job ${jobId} already exists`);
  }
}

/** A parameter that is not what the endpoint takes at all (an id list that is not ids, a bad ratio name). */
export class InvalidMediaParameterError extends InvalidInputError {
  readonly code = 'MEDIA.INVALID_PARAMETER';
}

/** Well-formed input that breaks a media rule; one violation per broken rule. */
export class InvalidMediaError extends RuleViolationError {
  readonly code: string = 'MEDIA.INVALID_MEDIA';
  constructor(message: string, field = 'file') {
    super(message, [{ field, message }]);
  }
}

/** The bytes are not an image type the service accepts (SVG, a PDF, text, or a type this deployment cannot decode). */
export class UnsupportedImageTypeError extends InvalidMediaError {
  override readonly code = 'MEDIA.UNSUPPORTED_TYPE';
}

/** The file name promises one type and the bytes are another. */
export class ImageTypeMismatchError extends InvalidMediaError {
  override readonly code = 'MEDIA.TYPE_MISMATCH';
}

/** Fewer than the minimum pixels on a side. */
export class ImageTooSmallError extends InvalidMediaError {
  override readonly code = 'MEDIA.IMAGE_TOO_SMALL';
}

/** More pixels declared than the service decodes (a decompression bomb, or simply too large). */
export class ImageTooManyPixelsError extends InvalidMediaError {
  override readonly code = 'MEDIA.TOO_MANY_PIXELS';
}

/** More bytes than one upload may have. The HTTP layer may answer it as 413. */
export class UploadTooLargeError extends InvalidMediaError {
  override readonly code = 'MEDIA.UPLOAD_TOO_LARGE';
  constructor(readonly maxBytes: number) {
    super(`The upload is larger than ${maxBytes} bytes`);
  }
}

/** The upload would take the user's library past its storage quota. */
export class StorageQuotaExceededError extends InvalidMediaError {
  override readonly code = 'MEDIA.QUOTA_EXCEEDED';
  constructor(readonly quotaBytes: number) {
    super(`This upload would exceed your storage quota of ${quotaBytes} bytes`);
  }
}

/** The user uploaded as many files as the window allows. */
export class UploadRateLimitedError extends RateLimitedError {
  readonly code = 'MEDIA.UPLOAD_RATE_LIMITED';
  constructor(retryAfterSeconds: number) {
    super('Rate limit exceeded. Please try again later.', retryAfterSeconds);
  }
}

/** An embed, video or document whose fields break rules. */
export class InvalidMediaFieldsError extends RuleViolationError {
  readonly code = 'MEDIA.INVALID_FIELDS';
  constructor(violations: readonly Violation[]) {
    super(violations.map((v) => v.message).join('; '), violations);
  }
}
