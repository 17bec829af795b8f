import { pathSegment, safeAbsoluteUrl, safeUrl } from './urls.js';

describe('safeUrl', () => {
  it.each([
    ['http://example.com', 'http://example.com'],
    ['https://example.com/a?b=1&c=2#d', 'https://example.com/a?b=1&c=2#d'],
    ['HTTPS://EXAMPLE.COM/', 'HTTPS://EXAMPLE.COM/'],
    ['  https://example.com/x  ', 'https://example.com/x'],
    ['/Guide/1', '/Guide/1'],
    ['/', '/'],
    ['/a?q=javascript:alert(1)', '/a?q=javascript:alert(1)'],
    ["https://en.wikipedia.org/wiki/Ohm's_law", 'https://en.wikipedia.org/wiki/Ohm%27s_law'],
    ['https://example.com/ünïcödé', 'https://example.com/ünïcödé'],
  ])('accepts %j', (input, output) => {
    expect(safeUrl(input)).toBe(output);
  });

  it.each([
    ['javascript:alert(1)'],
    ['JaVaScRiPt:alert(1)'],
    [' javascript:alert(1)'],
    ['java\tscript:alert(1)'],
    ['java\nscript:alert(1)'],
    ['java\u0000script:alert(1)'],
    ['&#106;avascript:alert(1)'],
    ['&#x6A;avascript:alert(1)'],
    ['javascript&colon;alert(1)'],
    ['vbscript:msgbox(1)'],
    ['VBScript:msgbox(1)'],
    ['data:text/html;base64,PHNjcmlwdD4='],
    ['DATA:text/html,x'],
    ['mailto:a@example.com'],
    ['ftp://example.com'],
    ['//evil.example'],
    ['///evil.example'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    ['/\t/evil.example'],
    ['/a b'],
    ['/a\u00A0b'],
    ['/a\u2028b'],
    ['http:/example.com'],
    ['http:\\\\example.com'],
    ['https://'],
    ['https:///path'],
    ['https://?q'],
    ['http://example.com/"onmouseover="x'],
    ['http://example.com/<script>'],
    ['http://example.com/`x`'],
    ['relative/path'],
    ['#anchor'],
    ['?query'],
    [''],
    ['   '],
    [`/${'a'.repeat(2048)}`],
  ])('refuses %j', (input) => {
    expect(safeUrl(input)).toBeNull();
  });
});

describe('safeAbsoluteUrl', () => {
  it('accepts absolute http(s) only', () => {
    expect(safeAbsoluteUrl('https://example.com/v')).toBe('https://example.com/v');
    expect(safeAbsoluteUrl('/relative')).toBeNull();
    expect(safeAbsoluteUrl('javascript:x')).toBeNull();
  });
});

describe('pathSegment', () => {
  it('turns whitespace into underscores and percent-encodes the rest', () => {
    expect(pathSegment('  Page  Title ')).toBe('Page_Title');
    expect(pathSegment("Bob's (page)*!")).toBe('Bob%27s_%28page%29%2A%21');
    expect(pathSegment('a/b?c#d&e:f')).toBe('a%2Fb%3Fc%23d%26e%3Af');
    expect(pathSegment('<script>"')).toBe('%3Cscript%3E%22');
    expect(pathSegment('Ünï')).toBe('%C3%9Cn%C3%AF');
  });
});
