import { ValidationFailedError } from '@rc/shared-kernel';
import { IsOptional, IsString } from 'class-validator';
import { BodyValidationPipe, findPrototypeKey } from './validation.js';

class ProfileEdit {
  @IsOptional()
  @IsString()
  about?: string;
}

const body = { type: 'body', metatype: ProfileEdit } as const;

describe('BodyValidationPipe', () => {
  const pipe = new BodyValidationPipe();

  it('treats no body as an empty object', async () => {
    await expect(pipe.transform(undefined, body)).resolves.toBeInstanceOf(ProfileEdit);
  });

  it('refuses a JSON null body, as any body that is not an object, naming the body', async () => {
    for (const value of [null, [], 'x', 1]) {
      await expect(pipe.transform(value, body)).rejects.toMatchObject({ violations: [{ field: '(body)', message: 'The request body must be a JSON object' }] });
    }
  });

  it('refuses __proto__ and constructor keys as unknown fields, and pollutes no prototype', async () => {
    for (const [text, field] of [
      ['{"__proto__":{"polluted":"yes"}}', '__proto__'],
      ['{"about":"x","constructor":{"prototype":{"polluted":"yes"}}}', 'constructor'],
    ] as const) {
      const error = await pipe.transform(JSON.parse(text), body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationFailedError);
      expect((error as ValidationFailedError).violations).toEqual([{ field, message: `Unknown field '${field}'` }]);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('still accepts a valid body', async () => {
    await expect(pipe.transform({ about: 'Hello' }, body)).resolves.toEqual(Object.assign(new ProfileEdit(), { about: 'Hello' }));
  });
});

describe('findPrototypeKey', () => {
  it('finds __proto__ or constructor at any depth, named as validation names fields', () => {
    expect(findPrototypeKey(JSON.parse('{"lines":[{"text":"a"},{"__proto__":{}}]}'))).toBe('lines.1.__proto__');
    expect(findPrototypeKey({ a: { b: { constructor: 1 } } })).toBe('a.b.constructor');
    expect(findPrototypeKey({ title: 'constructor', prototype: 1, proto: 2 })).toBeNull();
  });
});
