import { parseEmail } from './email.js';

describe('parseEmail', () => {
  it('trims and lower-cases the address', () => {
    expect(parseEmail('  Jane.Doe@Example.COM \n')).toBe('jane.doe@example.com');
  });

  it.each(['a@b.co', 'first.last+tag@sub.example.org', 'x_y-z@a-b.example.com', 'o\'neil@example.ie'])('accepts %p', (raw) => {
    expect(parseEmail(raw)).toBe(raw.toLowerCase());
  });

  it.each([
    '',
    '   ',
    'plain',
    '@example.com',
    'jane@',
    'jane@localhost',
    'jane@@example.com',
    'ja ne@example.com',
    'jane@exa mple.com',
    'jane@-example.com',
    'jane@example-.com',
    'jane@example..com',
    'jane@.example.com',
    '"jane"@example.com',
    'jane<x>@example.com',
    'jane,doe@example.com',
    'jane@exam_ple.com',
    'a\u0000b@example.com',
    'a\u0001b@example.com',
    'a\u007fb@example.com',
    'a\u0085b@example.com',
  ])('rejects %p', (raw) => {
    expect(parseEmail(raw)).toBeNull();
  });

  it.each([undefined, null, 42, {}, ['a@b.co']])('rejects the non-string %p', (raw) => {
    expect(parseEmail(raw)).toBeNull();
  });

  it('accepts a local part of 64 characters and rejects 65', () => {
    expect(parseEmail(`${'a'.repeat(64)}@example.com`)).not.toBeNull();
    expect(parseEmail(`${'a'.repeat(65)}@example.com`)).toBeNull();
  });

  it('accepts an address of 254 characters and rejects 255', () => {
    const domain = (length: number) => `${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(length - 183)}`;
    const at254 = `${'a'.repeat(64)}@${domain(189)}`;
    const at255 = `${'a'.repeat(64)}@${domain(190)}`;
    expect(at254).toHaveLength(254);
    expect(at255).toHaveLength(255);
    expect(parseEmail(at254)).toBe(at254);
    expect(parseEmail(at255)).toBeNull();
  });

  it('measures the length after trimming', () => {
    const address = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(6)}`;
    expect(address).toHaveLength(254);
    expect(parseEmail(`   ${address}   `)).toBe(address);
  });

  it('rejects a domain label longer than 63 characters', () => {
    expect(parseEmail(`a@${'b'.repeat(63)}.com`)).not.toBeNull();
    expect(parseEmail(`a@${'b'.repeat(64)}.com`)).toBeNull();
  });
});
