import { toPlainText } from './index.js';

describe('toPlainText', () => {
  it('gives the empty string for empty or blank input', () => {
    expect(toPlainText('')).toBe('');
    expect(toPlainText(' \n\t ')).toBe('');
  });

  it('drops formatting and keeps the text', () => {
    expect(toPlainText("A '''bold''' and ''italic'' word")).toBe('A bold and italic word');
  });

  it('keeps the labels of links', () => {
    expect(toPlainText('[[Page Title|label]] [[Other Page]] [guide|1|a guide] [guide|2] [link|https://x.example|site] [https://y.example] [product|IF-1|a part]')).toBe(
      'label Other Page a guide Guide 2 site https://y.example a part',
    );
  });

  it('drops images and videos', () => {
    expect(toPlainText('before [image|1] after\n\n[video|https://v.example/1]')).toBe('before\n\nafter');
  });

  it('separates blocks by a blank line; list items and paragraph lines go one per line', () => {
    expect(toPlainText('== Title ==\nline one\nline two\n\n* a\n** b\n# c')).toBe('Title\n\nline one\nline two\n\na\nb\n\nc');
  });

  it('is not HTML: markup-like text stays as typed, unescaped', () => {
    expect(toPlainText('<b>"x" & y</b> [unknown|z] [link|javascript:alert(1)|x]')).toBe('<b>"x" & y</b> [unknown|z] [link|javascript:alert(1)|x]');
  });

  it('drops control characters', () => {
    expect(toPlainText('a\u0000b\r\nc')).toBe('ab\nc');
  });
});
