import { escapeHtml, normalizeSource } from './escape.js';

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('leaves other text alone', () => {
    expect(escapeHtml('plain text, ünïcödé 🙂 \\ `')).toBe('plain text, ünïcödé 🙂 \\ `');
    expect(escapeHtml('')).toBe('');
  });
});

describe('normalizeSource', () => {
  it('turns CR LF and lone CR into LF', () => {
    expect(normalizeSource('a\r\nb\rc\n')).toBe('a\nb\nc\n');
  });

  it('drops control characters but tab and line feed', () => {
    expect(normalizeSource('a\u0000b\u0007c\u001Bd\u007Fe\u0085f\u009Fg\th\ni\u000Bj\u000Ck')).toBe('abcdefg\th\nijk');
  });

  it('replaces lone surrogates, keeps pairs', () => {
    expect(normalizeSource('a\uD800b\uDC00c\uD83D\uDE42')).toBe('a\uFFFDb\uFFFDc\uD83D\uDE42');
    expect(normalizeSource('\uDE42\uD83D')).toBe('\uFFFD\uFFFD');
  });
});
