import { memoizedRenderer, wikiRendererFor } from './wiki-renderer.js';
import { createWikiRenderer } from './render.js';

describe('memoized wiki renderer', () => {
  it('renders exactly as the renderer it wraps', () => {
    const plain = createWikiRenderer({ imageUrl: (id, size) => `http://x/igi/i${id}.${size === 'original' ? 'full' : size}` });
    const memo = wikiRendererFor('http://x');
    for (const raw of ["'''Bold''' and ''italic''", '[[Some page|a link]] <script>alert(1)</script>', '== Heading ==\n* item\n* item', '', '   ']) {
      expect(memo.block(raw)).toBe(plain.block(raw));
      expect(memo.inline(raw)).toBe(plain.inline(raw));
      expect(memo.inline(raw)).toBe(plain.inline(raw));
    }
  });

  it('renders a text once while it is remembered, keeps block and inline apart, and forgets the least recently used past its budget', () => {
    const calls: string[] = [];
    const memo = memoizedRenderer({ block: (raw) => (calls.push(`b:${raw}`), `<p>${raw}</p>`), inline: (raw) => (calls.push(`i:${raw}`), `<i>${raw}</i>`) }, 2 * 40);
    expect(memo.inline('aaaa')).toBe('<i>aaaa</i>');
    expect(memo.inline('aaaa')).toBe('<i>aaaa</i>');
    expect(memo.block('aaaa')).toBe('<p>aaaa</p>');
    expect(calls).toEqual(['i:aaaa', 'b:aaaa']);
    // Budget of 40 characters for inline texts: each entry here costs 4 + 11 = 15.
    memo.inline('bbbb');
    memo.inline('aaaa'); // used again: now the most recent
    memo.inline('cccc'); // over budget: 'bbbb', the least recently used, goes
    calls.length = 0;
    memo.inline('aaaa');
    memo.inline('cccc');
    memo.inline('bbbb');
    expect(calls).toEqual(['i:bbbb']);
  });

  it('renders long texts each time without keeping them', () => {
    let calls = 0;
    const memo = memoizedRenderer({ block: () => (calls++, 'x'), inline: () => 'y' });
    const long = 'a'.repeat(5000);
    memo.block(long);
    memo.block(long);
    expect(calls).toBe(2);
  });
});
