import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { renderInline as pureInline, renderWiki as pureRender, type MarkupOptions } from '@rc/shared-markup';
import { isAllowedUrl, sanitizeRenderedHtml } from './html-sanitizer.js';
import { createWikiRenderer, renderWiki, renderWikiInline, toPlainText } from './render.js';

// ---------------------------------------------------------------------------------------------
// What "safe" means, checked on the HTML text itself
// ---------------------------------------------------------------------------------------------

/** Every literal `<` in the output opens a tag (text has `&lt;`), so this finds every tag. */
const tagsOf = (html: string): string[] => html.match(/<[^>]*>?/g) ?? [];
const textOf = (html: string): string => html.replace(/<[^>]*>?/g, '');

/** A browser's single decoding pass over an attribute value: numeric references and the common names. */
function decodeEntities(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', sol: '/' };
  return value.replace(/&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));?/gi, (whole, dec?: string, hex?: string, name?: string) => {
    if (dec !== undefined) return String.fromCodePoint(Math.min(Number(dec), 0x10ffff));
    if (hex !== undefined) return String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
    return named[name!.toLowerCase()] ?? whole;
  });
}

/** The values of href= and src= attributes anywhere in tags, in whatever quoting, entity-decoded. */
function urlAttributes(html: string): string[] {
  const values: string[] = [];
  for (const tag of tagsOf(html)) {
    for (const m of tag.matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      values.push(decodeEntities(m[1] ?? m[2] ?? m[3] ?? ''));
    }
  }
  return values;
}

const DANGEROUS_SCHEME = /^(?:javascript|vbscript|data):/i;
const ALLOWED_URL = /^(?:https?:\/\/[^/?#]|\/(?![/\\]))/i;

/**
 * The problems that make `html` unsafe (none: safe). Browsers drop ASCII whitespace and controls
 * anywhere in a URL before reading its scheme, so the scheme is read the same way here.
 * `javascript:` *somewhere* in a URL is harmless when the URL starts with http(s):// or a single
 * `/` (e.g. `/search?q=javascript:`), which every URL must; what may never happen is a URL whose
 * scheme is dangerous, or any URL outside the allow-list.
 */
function safetyProblems(html: string): string[] {
  const problems: string[] = [];
  if (/<script/i.test(html)) problems.push('<script');
  for (const tag of tagsOf(html)) {
    if (/\son[a-z]+\s*=/i.test(tag)) problems.push(`event handler in ${tag}`);
    if (/\sstyle\s*=/i.test(tag)) problems.push(`style in ${tag}`);
  }
  for (const url of urlAttributes(html)) {
    // eslint-disable-next-line no-control-regex
    if (DANGEROUS_SCHEME.test(url.replace(/[\u0000-\u0020\u007F-\u009F]/g, ''))) problems.push(`dangerous URL ${url}`);
    // eslint-disable-next-line no-control-regex
    if (!ALLOWED_URL.test(url) || /[\s\u0000-\u001F\\]/.test(url)) problems.push(`URL outside the allow-list ${url}`);
  }
  return problems;
}

function expectSafe(html: string): void {
  expect(safetyProblems(html)).toEqual([]);
}

// The renderer's complete vocabulary, tag by tag (mirrors libs/shared/markup/src/html.ts).
const URL_VALUE = '(?:https?://[^/?#"<>\\s]|/(?![/\\\\]))[^"<>\\s\\\\]*';
const VOCABULARY = new RegExp(
  '^(?:' +
    [
      '</?(?:p|strong|em|ul|ol|li)>',
      '<br />',
      '<h([234]) id="Section_[A-Za-z0-9_-]*">',
      '</h[234]>',
      `<a href="${URL_VALUE}">`,
      `<a href="${URL_VALUE}" rel="nofollow noopener" target="_blank">`,
      '</a>',
      '<div class="(?:imageBox_(?:left|center|right)|videoBox_center)">',
      '</div>',
      `<img src="${URL_VALUE}" alt="" />`,
    ].join('|') +
    ')$',
);

/** Safe by construction: nothing but the vocabulary, and text holds only the five escapes. */
function vocabularyProblems(html: string): string[] {
  const problems = tagsOf(html)
    .filter((tag) => !VOCABULARY.test(tag) || tag.replace(/&amp;/g, '').includes('&'))
    .map((tag) => `not in the vocabulary: ${tag}`);
  const text = textOf(html);
  if (/[<>"']/.test(text)) problems.push('unescaped text');
  if (text.replace(/&(?:amp|lt|gt|quot|#39);/g, '').includes('&')) problems.push('unknown entity in text');
  return problems;
}

function expectVocabulary(html: string): void {
  expect(vocabularyProblems(html)).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const HOSTILE = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<div style="background:url(javascript:alert(1))">',
  '<svg/onload=alert(1)>',
  '<iframe src="data:text/html,<script>alert(1)</script>">',
  '[link|javascript:alert(1)|x]',
  '[link|JaVaScRiPt:alert(1)|x]',
  '[link|java\tscript:alert(1)|x]',
  '[link|java\nscript:alert(1)|x]',
  '[link| javascript:alert(1)|x]',
  '[link|&#106;avascript:alert(1)|x]',
  '[link|javascript&colon;alert(1)|x]',
  '[link|vbscript:msgbox(1)|x]',
  '[link|data:text/html;base64,PHNjcmlwdD4=|x]',
  '[link|//evil.example|x]',
  '[link|/\\evil.example|x]',
  '[link|/\t/evil.example|x]',
  '[link|http://x" onmouseover="alert(1)|x]',
  "[link|http://x' onmouseover='alert(1)|x]",
  '[http://x"onmouseover=alert(1)//|x]',
  '[[a|<b onmouseover=x>]]',
  '[[javascript:alert(1)]]',
  '[[" onmouseover="alert(1)|x]]',
  "'''<svg onload=x>'''",
  "''<img src=x onerror=alert(1)>''",
  '[video|javascript:x]',
  '[video|data:video/mp4,AAAA]',
  '[image|1|size=medium" onerror="alert(1)]',
  '[image|javascript:alert(1)]',
  '[product|x" onclick="y|z]',
  '[guide|1 onclick=alert(1)|x]',
  '== <script>alert(1)</script> ==',
  '* <img src=x onerror=alert(1)>',
  '&#106;avascript:',
  '&lt;script&gt;',
  '&amp;',
  '&',
  '"',
  "'",
  '\\',
  '`',
  '\n',
  '\n\n',
  '\r\n',
  '\r',
  '\t',
  '\u0000',
  '\u0007',
  '\u0085',
  '\u2028',
  '\uFEFF',
  '\uD800',
  'javascript:',
  'data:',
  'vbscript:',
  ' onerror=alert(1)',
];

const MARKUP = [
  "'''",
  "''",
  "'''''",
  "''''",
  "'",
  '== ',
  ' ==',
  '=== ',
  ' ===',
  '==== ',
  '= ',
  '* ',
  '** ',
  '*** ',
  '# ',
  '## ',
  '#* ',
  '*# ',
  '[[',
  ']]',
  '[',
  ']',
  '|',
  '[link|',
  '[guide|',
  '[image|',
  '[video|',
  '[product|',
  '[http://',
  'http://example.com',
  'https://example.com/a?b=1&c=2',
  '/Wiki/Page',
  '42',
  'size=large',
  'align=left',
  '[[Page Title|label]]',
  '[[Page Title]]',
  '[[Category:iPhone 6|cat]]',
  '[[Device:Mac Book]]',
  '[[Topic:Battery]]',
  '[guide|42|Fix it]',
  '[guide|42]',
  '[image|7|size=large|align=right]',
  '[image|7]',
  '[video|https://example.com/v]',
  '[product|IF-1|Part]',
  '[link|https://example.com|ex]',
  '[link|/Guide/1|rel]',
  '[https://example.com|ex]',
  "'''bold'''",
  "''italic''",
  '== Heading ==',
];

const word = fc.string({ unit: 'grapheme-ascii', maxLength: 8 });
const fragment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 4, arbitrary: fc.constantFrom(...MARKUP) },
  { weight: 2, arbitrary: word },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);
const grammarDoc = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));
const unicodeDoc = fc.string({ unit: 'binary', maxLength: 200 });
/** Any UTF-16 code unit, lone surrogates included. */
const codeUnitDoc = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 100 });
const anyDoc = fc.oneof({ weight: 1, arbitrary: unicodeDoc }, { weight: 1, arbitrary: codeUnitDoc }, { weight: 3, arbitrary: grammarDoc });

/** Callers' URL callbacks, hostile ones included: the renderer vets what they return too. */
const callbackUrl = fc.constantFrom(
  'https://cdn.example.com/igi/1.medium',
  '/igi/x',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  '//evil.example/x',
  '" onerror="alert(1)',
  'java\tscript:alert(1)',
  '',
);
const options: fc.Arbitrary<MarkupOptions> = fc.record(
  { imageUrl: callbackUrl.map((url) => () => url), guideUrl: callbackUrl.map((url) => () => url) },
  { requiredKeys: [] },
);

const RUNS = { numRuns: 2500 };

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe('renderWiki (API: renderer + sanitizer), property-based', () => {
  it('never emits a script, an event handler, a style or a dangerous URL', () => {
    fc.assert(
      fc.property(anyDoc, options, (raw, opts) => {
        expectSafe(renderWiki(raw, opts));
        expectSafe(renderWikiInline(raw, opts));
      }),
      RUNS,
    );
  });

  it('the pure renderer alone is already safe, and writes only its vocabulary (safe by construction)', () => {
    fc.assert(
      fc.property(anyDoc, options, (raw, opts) => {
        for (const html of [pureRender(raw, opts), pureInline(raw, opts)]) {
          expectSafe(html);
          expectVocabulary(html);
        }
      }),
      RUNS,
    );
  });

  it('the sanitizer does not change what the renderer writes (the allow-list is the vocabulary)', () => {
    fc.assert(
      fc.property(anyDoc, options, (raw, opts) => {
        const block = pureRender(raw, opts);
        const inline = pureInline(raw, opts);
        expect(sanitizeRenderedHtml(block)).toBe(block);
        expect(sanitizeRenderedHtml(inline)).toBe(inline);
      }),
      RUNS,
    );
  });

  it('renders long and repetitive input quickly, and still safely (no catastrophic backtracking)', () => {
    const long = fc.oneof(
      fc.tuple(fragment, fc.integer({ min: 1, max: 2000 })).map(([f, n]) => f.repeat(n)),
      fc.array(fragment, { minLength: 200, maxLength: 1000 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(long, (raw) => {
        let html = '';
        let inline = '';
        const render = () => {
          const started = performance.now();
          html = pureRender(raw);
          inline = pureInline(raw);
          return performance.now() - started;
        };
        // Linear work takes a few ms here; a quadratic scan of these sizes takes seconds. A slow
        // first measure is measured again, so that a GC pause or a busy machine is not a failure.
        let elapsed = render();
        if (elapsed >= 250) elapsed = Math.min(elapsed, render());
        expect(elapsed).toBeLessThan(250);
        expectSafe(html);
        expectVocabulary(html);
        expectVocabulary(inline);
      }),
      { numRuns: 2000 },
    );
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// Examples
// ---------------------------------------------------------------------------------------------

describe('renderWiki (API)', () => {
  it('renders markup through the sanitizer unchanged', () => {
    const raw = "== Tools ==\n* '''Spudger'''\n* [[iFixit Toolkit|toolkit]]\n\nSee [guide|12|this guide] and [https://example.com|the site].";
    expect(renderWiki(raw)).toBe(
      [
        '<h2 id="Section_Tools">Tools</h2>',
        '<ul><li><strong>Spudger</strong></li><li><a href="/Wiki/iFixit_Toolkit">toolkit</a></li></ul>',
        '<p>See <a href="/Guide/12">this guide</a> and <a href="https://example.com" rel="nofollow noopener" target="_blank">the site</a>.</p>',
      ].join('\n'),
    );
  });

  it('gives the empty string for empty or blank input', () => {
    expect(renderWiki('')).toBe('');
    expect(renderWiki(' \n\t\n ')).toBe('');
    expect(renderWikiInline('')).toBe('');
  });

  it('passes options through (image and guide URLs)', () => {
    const opts: MarkupOptions = {
      imageUrl: (id, size) => `https://cdn.example.com/igi/i${id}.${size}`,
      guideUrl: (id) => `/Guide/Replacing+the+battery/${id}`,
    };
    expect(renderWiki('[image|5|size=large]', opts)).toBe('<div class="imageBox_center"><img src="https://cdn.example.com/igi/i5.large" alt="" /></div>');
    expect(renderWikiInline('[guide|7|x]', opts)).toBe('<a href="/Guide/Replacing+the+battery/7">x</a>');
  });

  it('renders step lines inline', () => {
    expect(renderWikiInline("Remove the '''two''' screws.")).toBe('Remove the <strong>two</strong> screws.');
    expect(renderWikiInline('[image|1]')).toBe('[image|1]');
  });

  it('offers the renderer in the shape the guides presenter takes, and plain text', () => {
    const renderer = createWikiRenderer();
    expect(renderer.block("''a''")).toBe('<p><em>a</em></p>');
    expect(renderer.inline("''a''")).toBe('<em>a</em>');
    expect(toPlainText("== A ==\n'''b''' [[C|d]]")).toBe('A\n\nb d');
  });

  it('keeps every hostile snippet inert', () => {
    for (const snippet of HOSTILE) {
      expectSafe(renderWiki(snippet));
      expectVocabulary(renderWiki(snippet));
    }
    expect(renderWiki('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(renderWiki('[link|JaVaScRiPt:alert(1)|x]')).toBe('<p>[link|JaVaScRiPt:alert(1)|x]</p>');
  });
});

describe('sanitizeRenderedHtml (the second wall, on HTML the renderer would never write)', () => {
  it.each([
    ['<script>alert(1)</script><p>x</p>', '<p>x</p>'],
    ['<p onclick="alert(1)" style="color:red" class="x">x</p>', '<p>x</p>'],
    ['<img src="x" onerror="alert(1)" />', '<img />'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#x09;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html,x">x</a>', '<a>x</a>'],
    ['<a href="vbscript:x">x</a>', '<a>x</a>'],
    ['<a href="//evil.example/">x</a>', '<a>x</a>'],
    ['<a href="/\\evil.example/">x</a>', '<a>x</a>'],
    ['<a href="relative/path">x</a>', '<a>x</a>'],
    ['<a href="mailto:a@example.com">x</a>', '<a>x</a>'],
    ['<a href="/ok" target="_top" rel="opener">x</a>', '<a href="/ok">x</a>'],
    ['<div class="imageBox_center evil"><img src="/igi/1.medium" alt="" /></div>', '<div class="imageBox_center"><img src="/igi/1.medium" alt="" /></div>'],
    ['<h2 id="main">x</h2>', '<h2>x</h2>'],
    ['<h1>x</h1><table><tr><td>y</td></tr></table>', 'xy'],
    ['<iframe src="https://evil.example"></iframe>', ''],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<style>p{}</style><p>x</p>', '<p>x</p>'],
  ])('%s -> %s', (input, output) => {
    expect(sanitizeRenderedHtml(input)).toBe(output);
  });

  it('keeps the renderer vocabulary verbatim', () => {
    const html =
      '<h3 id="Section_A-b_1">A</h3>\n<p>&lt;&amp;&quot;&#39;&gt;<br /><strong><em>x</em></strong></p>\n' +
      '<ol><li>a<ul><li>b</li></ul></li></ol>\n<div class="videoBox_center"><a href="https://v.example/x?a=1&amp;b=2" rel="nofollow noopener" target="_blank">video</a></div>';
    expect(sanitizeRenderedHtml(html)).toBe(html);
  });

  it('accepts http(s) and site-relative URLs only', () => {
    expect(['http://a', 'HTTPS://a/b', '/', '/x?y#z'].map(isAllowedUrl)).toEqual([true, true, true, true]);
    expect(['//a', '/\\a', 'a/b', '#x', 'javascript:x', 'http:/a', 'https://', '/a b', 'ftp://a'].map(isAllowedUrl)).toEqual(
      Array(9).fill(false),
    );
  });
});
