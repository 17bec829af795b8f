import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ValidationFailedError, type Violation } from '@rc/shared-kernel';

/**
 * Request bodies are checked against their DTO: wrong types, unknown fields and out-of-range
 * values are a 422 listing each field, before any use case runs (so nothing is written).
 */
export class BodyValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      stopAtFirstError: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors: ValidationError[]) => {
        const violations = flatten(errors);
        return new ValidationFailedError(violations.map((v) => v.message).join('; '), violations);
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return value;
    // No body at all is an empty object; any JSON that is not an object (`null` included) is refused.
    if (value === undefined && metadata.data === undefined) value = {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ValidationFailedError('The request body must be a JSON object', [{ field: '(body)', message: 'The request body must be a JSON object' }]);
    }
    const nul = findNul(value);
    if (nul !== null) throw new ValidationFailedError('Text may not contain NUL characters', [{ field: nul, message: 'Text may not contain NUL characters' }]);
    // Before class-transformer, which would assign `__proto__` as the instance's prototype.
    const reserved = findPrototypeKey(value);
    if (reserved !== null) throw new ValidationFailedError(`Unknown field '${reserved}'`, [{ field: reserved, message: `Unknown field '${reserved}'` }]);
    return super.transform(value, metadata);
  }
}

function flatten(errors: ValidationError[], prefix = ''): Violation[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: message.startsWith('property ') ? `Unknown field '${field}'` : message,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** The path of the first string (or key) holding U+0000, which no text column can store; `null` if none. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(body)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return field;
      const found = findNul(item, field);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Keys no DTO has and that name an object's prototype machinery. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor']);

/**
 * The path (as validation names fields: `lines.0.__proto__`) of the first `__proto__` or
 * `constructor` key at any depth of a body; `null` if none. Such a key is an unknown field like
 * any other, but it must be refused before anything copies the body into an object.
 */
export function findPrototypeKey(value: unknown, path = ''): string | null {
  if (!value || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const field = path ? `${path}.${key}` : key;
    if (PROTOTYPE_KEYS.has(key)) return field;
    const found = findPrototypeKey(item, field);
    if (found !== null) return found;
  }
  return null;
}
