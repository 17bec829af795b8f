import { InvalidInputError } from '@rc/shared-kernel';
import { jsonBodyDefect, MAX_JSON_DEPTH, NOT_UNICODE, RequestBodyRejectedError, TOO_DEEP, verifyJsonBytes } from './json-body.js';

const arrays = (depth: number, inner = ''): string => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('jsonBodyDefect', () => {
  it('accepts ordinary bodies, scalars, null and no body', () => {
    for (const body of [undefined, null, 0, true, 'text', {}, [], { lines: [{ text: 'A step 🔧', level: 1 }], title: 'é ü 中文' }]) {
      expect(jsonBodyDefect(body)).toBeNull();
    }
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(jsonBodyDefect(JSON.parse(arrays(MAX_JSON_DEPTH)))).toBeNull();
    expect(jsonBodyDefect(JSON.parse(arrays(MAX_JSON_DEPTH + 1)))).toBe(TOO_DEEP);
    expect(jsonBodyDefect(JSON.parse(`{"a":${arrays(MAX_JSON_DEPTH - 1, '1')}}`))).toBeNull();
    expect(jsonBodyDefect(JSON.parse(`{"a":${arrays(MAX_JSON_DEPTH, '1')}}`))).toBe(TOO_DEEP);
  });

  it('walks a body of any depth without recursing (no stack overflow)', () => {
    const deep = JSON.parse(arrays(200_000));
    expect(jsonBodyDefect(deep)).toBe(TOO_DEEP);
    const objects = JSON.parse('{"a":'.repeat(100_000) + '{}' + '}'.repeat(100_000));
    expect(jsonBodyDefect(objects)).toBe(TOO_DEEP);
  });

  it('finds an unpaired surrogate in any string or key, however deep or far along', () => {
    const wide = Array.from({ length: 5000 }, (_, i) => ({ text: `line ${i}` }));
    expect(jsonBodyDefect({ lines: wide })).toBeNull();
    wide[4321]!.text = 'bad \ud800';
    expect(jsonBodyDefect({ lines: wide })).toBe(NOT_UNICODE);
    for (const body of ['\udfff', { title: 'a\ud83d' }, { ['k\udc00']: 1 }, [[['\ud800\ud800']]], { a: { b: ['ok', '\udbff end'] } }]) {
      expect(jsonBodyDefect(body)).toBe(NOT_UNICODE);
    }
  });

  it('accepts surrogate pairs', () => {
    expect(jsonBodyDefect({ title: 'Fix \ud83d\udd27', ['\ud83d\ude00']: ['\ud800\udc00'] })).toBeNull();
  });

  it('is an input error (400) of the body as a whole', () => {
    expect(new RequestBodyRejectedError(TOO_DEEP)).toBeInstanceOf(InvalidInputError);
  });
});

describe('verifyJsonBytes', () => {
  const utf8 = (text: string) => Buffer.from(text, 'utf8');

  it('accepts UTF-8 without a byte order mark', () => {
    expect(() => verifyJsonBytes(utf8('{"title":"Fix 🔧 é"}'), 'utf-8')).not.toThrow();
    expect(() => verifyJsonBytes(Buffer.alloc(0), 'utf-8')).not.toThrow();
  });

  it('refuses a UTF-8 byte order mark as invalid JSON (400)', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('{}')]);
    expect(() => verifyJsonBytes(bom, 'utf-8')).toThrow(expect.objectContaining({ status: 400, type: 'entity.parse.failed' }));
  });

  it('refuses bytes that are not UTF-8, encoded surrogates included', () => {
    for (const bytes of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xc0, 0xaf]]) {
      const body = Buffer.concat([utf8('{"a":"'), Buffer.from(bytes), utf8('"}')]);
      expect(() => verifyJsonBytes(body, 'utf-8')).toThrow(new RequestBodyRejectedError(NOT_UNICODE));
    }
  });

  it('leaves bodies in another declared charset to their decoder', () => {
    expect(() => verifyJsonBytes(Buffer.from('{}', 'utf16le'), 'utf-16le')).not.toThrow();
  });
});
