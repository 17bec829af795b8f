import { renderInline, renderWiki, type MarkupOptions } from './index.js';

const EXT = 'rel="nofollow noopener" target="_blank"';

describe('bold and italic', () => {
  it.each([
    ["'''bold'''", '<strong>bold</strong>'],
    ["''italic''", '<em>italic</em>'],
    ["'''''both'''''", '<strong><em>both</em></strong>'],
    ["a '''b''' c ''d'' e", 'a <strong>b</strong> c <em>d</em> e'],
    ["'''bold ''and italic'' inside'''", '<strong>bold <em>and italic</em> inside</strong>'],
    ["''italic '''and bold''' inside''", '<em>italic <strong>and bold</strong> inside</em>'],
    ["'''''both''' italic''", '<strong><em>both</em></strong><em> italic</em>'],
    ["'''''both'' bold'''", '<strong><em>both</em> bold</strong>'],
    ["''it '''''bo'''", '<em>it </em><strong>bo</strong>'],
    ["''''four'''", '&#39;<strong>four</strong>'],
    ["''''''six'''''", '&#39;<strong><em>six</em></strong>'],
  ])('%j', (raw, html) => {
    expect(renderInline(raw)).toBe(html);
  });

  it('closes and reopens overlapping formatting so that elements nest properly', () => {
    expect(renderInline("'''bold ''both''' italic''")).toBe('<strong>bold <em>both</em></strong><em> italic</em>');
    expect(renderInline("''italic '''both'' bold'''")).toBe('<em>italic <strong>both</strong></em><strong> bold</strong>');
  });

  it.each([
    ["'''unclosed", '&#39;&#39;&#39;unclosed'],
    ["''unclosed", '&#39;&#39;unclosed'],
    ["'''a''' '''b", '<strong>a</strong> &#39;&#39;&#39;b'],
    ["'''unclosed and ''italic''", '&#39;&#39;&#39;unclosed and <em>italic</em>'],
    ["'''''x''", '&#39;&#39;&#39;<em>x</em>'],
    ["'''''x'''", '&#39;&#39;<strong>x</strong>'],
    ["'''''x", '&#39;&#39;&#39;&#39;&#39;x'],
    ["it's Bob's", 'it&#39;s Bob&#39;s'],
    ["''", '&#39;&#39;'],
    ["''''", '&#39;&#39;&#39;&#39;'],
  ])('keeps an unmatched marker literal: %j', (raw, html) => {
    expect(renderInline(raw)).toBe(html);
  });

  it('keeps a long run of quotes literal when nothing closes it', () => {
    expect(renderInline("a''''''b")).toBe(`a${'&#39;'.repeat(6)}b`);
    expect(renderInline("'''''''''' x")).toBe(`${'&#39;'.repeat(10)} x`);
  });

  it('drops formatting left with nothing inside', () => {
    expect(renderWiki("'''[image|1]'''")).toBe('<div class="imageBox_center"><img src="/igi/1.medium" alt="" /></div>');
  });

  it('escapes text inside formatting', () => {
    expect(renderInline("'''<svg onload=x>'''")).toBe('<strong>&lt;svg onload=x&gt;</strong>');
  });
});

describe('wiki links', () => {
  it.each([
    ['[[Page Title|label]]', '<a href="/Wiki/Page_Title">label</a>'],
    ['[[Page Title]]', '<a href="/Wiki/Page_Title">Page Title</a>'],
    ['[[  Page   Title  |  label  ]]', '<a href="/Wiki/Page_Title">label</a>'],
    ['[[Page|]]', '<a href="/Wiki/Page">Page</a>'],
    ['[[Page|a|b]]', '<a href="/Wiki/Page">a|b</a>'],
    ['[[Category:iPhone 6|phone]]', '<a href="/Device/iPhone_6">phone</a>'],
    ['[[category: iPhone 6]]', '<a href="/Device/iPhone_6">category: iPhone 6</a>'],
    ['[[Device:MacBook Pro 13"]]', '<a href="/Device/MacBook_Pro_13%22">Device:MacBook Pro 13&quot;</a>'],
    ['[[Topic:Battery|batteries]]', '<a href="/Topic/Battery">batteries</a>'],
    ['[[User:Someone]]', '<a href="/Wiki/User%3ASomeone">User:Someone</a>'],
    ['[[Device:]]', '<a href="/Wiki/Device%3A">Device:</a>'],
    ["[[Bob's (page)]]", '<a href="/Wiki/Bob%27s_%28page%29">Bob&#39;s (page)</a>'],
    ['[[a/b?c#d&e]]', '<a href="/Wiki/a%2Fb%3Fc%23d%26e">a/b?c#d&amp;e</a>'],
    ['[[Ünïcödé]]', '<a href="/Wiki/%C3%9Cn%C3%AFc%C3%B6d%C3%A9">Ünïcödé</a>'],
    ["[[Page|'''bold''' label]]", '<a href="/Wiki/Page"><strong>bold</strong> label</a>'],
    ["''[[Page|label]]''", '<em><a href="/Wiki/Page">label</a></em>'],
  ])('%j', (raw, html) => {
    expect(renderInline(raw)).toBe(html);
  });

  it('escapes hostile titles and labels', () => {
    expect(renderInline('[[a|<b onmouseover=x>]]')).toBe('<a href="/Wiki/a">&lt;b onmouseover=x&gt;</a>');
    expect(renderInline('[[" onmouseover="alert(1)]]')).toBe(
      '<a href="/Wiki/%22_onmouseover%3D%22alert%281%29">&quot; onmouseover=&quot;alert(1)</a>',
    );
    expect(renderInline('[[javascript:alert(1)]]')).toBe('<a href="/Wiki/javascript%3Aalert%281%29">javascript:alert(1)</a>');
  });

  it.each([
    ['[[]]'],
    ['[[ |label]]'],
    ['[[unclosed'],
    ['[[unclosed]'],
    ['[[a[b]]'],
    ['[[a]b]]'],
  ])('keeps malformed %j literal', (raw) => {
    expect(renderInline(raw)).not.toContain('<a');
  });

  it('keeps the brackets around a link literal where they do not belong to it', () => {
    expect(renderInline('[[[Page]]]')).toBe('[<a href="/Wiki/Page">Page</a>]');
    expect(renderInline('[[a[b]] [[c]]')).toBe('[[a[b]] <a href="/Wiki/c">c</a>');
  });

  it('does not nest links (a link label is text and formatting only)', () => {
    expect(renderInline('[[Page|see [[Other]]]]')).toBe('[[Page|see <a href="/Wiki/Other">Other</a>]]');
  });
});

describe('guide links', () => {
  it.each([
    ['[guide|123|label]', '<a href="/Guide/123">label</a>'],
    ['[guide| 123 | label ]', '<a href="/Guide/123">label</a>'],
    ['[guide|123]', '<a href="/Guide/123">Guide 123</a>'],
    ['[guide|0042|x]', '<a href="/Guide/42">x</a>'],
    ['[Guide|7|x]', '<a href="/Guide/7">x</a>'],
  ])('%j', (raw, html) => {
    expect(renderInline(raw)).toBe(html);
  });

  it.each([['[guide|abc|x]'], ['[guide|12a|x]'], ['[guide|-1|x]'], ['[guide|1.5|x]'], ['[guide||x]'], ['[guide]'], ['[guide|1234567890123456|x]']])(
    'keeps %j literal (digits only)',
    (raw) => {
      expect(renderInline(raw)).toBe(raw.replace(/'/g, '&#39;'));
    },
  );

  it('takes the guide URL from the options', () => {
    const options: MarkupOptions = { guideUrl: (id) => `/Guide/Replacing+the+battery/${id}` };
    expect(renderInline('[guide|9|x]', options)).toBe('<a href="/Guide/Replacing+the+battery/9">x</a>');
  });

  it('falls back to the default URL when the option gives an unsafe one', () => {
    for (const bad of ['javascript:alert(1)', '//evil.example/x', '" onclick="x', '']) {
      expect(renderInline('[guide|9|x]', { guideUrl: () => bad })).toBe('<a href="/Guide/9">x</a>');
    }
  });
});

describe('external and site links', () => {
  it.each([
    ['[link|http://example.com|ex]', `<a href="http://example.com" ${EXT}>ex</a>`],
    ['[link|https://example.com/a?b=1&c=2|ex]', `<a href="https://example.com/a?b=1&amp;c=2" ${EXT}>ex</a>`],
    ['[link| HTTPS://Example.com |ex]', `<a href="HTTPS://Example.com" ${EXT}>ex</a>`],
    ['[link|https://example.com]', `<a href="https://example.com" ${EXT}>https://example.com</a>`],
    ['[link|https://example.com|a|b]', `<a href="https://example.com" ${EXT}>a|b</a>`],
    ["[link|https://en.wikipedia.org/wiki/Ohm's_law|Ohm]", `<a href="https://en.wikipedia.org/wiki/Ohm%27s_law" ${EXT}>Ohm</a>`],
    ['[link|/Guide/1|site]', '<a href="/Guide/1">site</a>'],
    ['[http://example.com|ex]', `<a href="http://example.com" ${EXT}>ex</a>`],
    ['[https://example.com/x]', `<a href="https://example.com/x" ${EXT}>https://example.com/x</a>`],
    ["[https://example.com|''it'']", `<a href="https://example.com" ${EXT}><em>it</em></a>`],
  ])('%j', (raw, html) => {
    expect(renderInline(raw)).toBe(html);
  });

  // A refused URL leaves the whole construct as literal (escaped) text: the author sees it, and
  // nothing is linked.
  it.each([
    ['[link|javascript:alert(1)|x]'],
    ['[link|JaVaScRiPt:alert(1)|x]'],
    ['[link|java\tscript:alert(1)|x]'],
    ['[link| javascript:alert(1)|x]'],
    ['[link|&#106;avascript:alert(1)|x]'],
    ['[link|javascript&colon;alert(1)|x]'],
    ['[link|vbscript:msgbox(1)|x]'],
    ['[link|data:text/html;base64,PHNjcmlwdD4=|x]'],
    ['[link|mailto:a@example.com|x]'],
    ['[link|//evil.example|x]'],
    ['[link|/\\evil.example|x]'],
    ['[link|relative/path|x]'],
    ['[link|http://x" onmouseover="alert(1)|x]'],
    ['[link||x]'],
    ['[link]'],
    ['[http://|x]'],
    ['[http://a b|x]'],
  ])('keeps %j literal', (raw) => {
    const html = renderInline(raw);
    expect(html).not.toContain('<a');
    expect(html).toBe(raw.replace(/&/g, '&amp;').replace(/"/g, '&quot;'));
  });

  it('renders a refused link as its raw text, escaped', () => {
    expect(renderInline('[link|javascript:alert("x")|<b>]')).toBe('[link|javascript:alert(&quot;x&quot;)|&lt;b&gt;]');
  });
});

describe('product links', () => {
  it.each([
    ['[product|IF145-278|Pro Tech Toolkit]', '<a href="/Store/Product/IF145-278">Pro Tech Toolkit</a>'],
    ['[product|IF_1]', '<a href="/Store/Product/IF_1">IF_1</a>'],
  ])('%j', (raw, html) => {
    expect(renderInline(raw)).toBe(html);
  });

  it.each([['[product|bad code|x]'], ['[product|a/b|x]'], ['[product|a"b|x]'], ['[product||x]'], [`[product|${'a'.repeat(101)}]`]])(
    'keeps %j literal',
    (raw) => {
      expect(renderInline(raw)).not.toContain('<a');
    },
  );
});

describe('images', () => {
  const img = (cls: string, src: string) => `<div class="imageBox_${cls}"><img src="${src}" alt="" /></div>`;

  it.each([
    ['[image|123]', img('center', '/igi/123.medium')],
    ['[image|123|size=large|align=left]', img('left', '/igi/123.large')],
    ['[image|123|align=right|size=mini]', img('right', '/igi/123.mini')],
    ['[image| 123 | SIZE = Thumbnail | Align = Center ]', img('center', '/igi/123.thumbnail')],
    ['[image|123|original|left]', img('left', '/igi/123.original')],
    ['[image|123|size=huge|align=top|caption=x]', img('center', '/igi/123.medium')],
    ['[image|123|size=left|align=large]', img('center', '/igi/123.medium')],
    ['[Image|5|size=standard]', img('center', '/igi/5.standard')],
  ])('%j', (raw, html) => {
    expect(renderWiki(raw)).toBe(html);
  });

  it('takes the image URL from the options', () => {
    const options: MarkupOptions = { imageUrl: (id, size) => `https://cdn.example.com/igi/i${id}.${size}` };
    expect(renderWiki('[image|4|size=large]', options)).toBe(img('center', 'https://cdn.example.com/igi/i4.large'));
  });

  it('falls back to the default URL when the option gives an unsafe one', () => {
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '//evil.example/x', '" onerror="alert(1)', 'x.png']) {
      expect(renderWiki('[image|4]', { imageUrl: () => bad })).toBe(img('center', '/igi/4.medium'));
    }
  });

  it.each([['[image|abc]'], ['[image|javascript:alert(1)]'], ['[image|]'], ['[image]'], ['[image|1 2]'], ['[image|-1]']])('keeps %j literal', (raw) => {
    expect(renderWiki(raw)).toBe(`<p>${raw}</p>`);
  });

  it('is not rendered inline (step lines)', () => {
    expect(renderInline('[image|1]')).toBe('[image|1]');
  });
});

describe('videos', () => {
  it('renders an http(s) video as a link in a box (no iframe)', () => {
    expect(renderWiki('[video|https://www.youtube.com/watch?v=abc&t=2]')).toBe(
      `<div class="videoBox_center"><a href="https://www.youtube.com/watch?v=abc&amp;t=2" ${EXT}>video</a></div>`,
    );
  });

  it.each([['[video|javascript:x]'], ['[video|/relative]'], ['[video|data:video/mp4,AAAA]'], ['[video|//evil.example/v]'], ['[video]'], ['[video|]']])(
    'keeps %j literal',
    (raw) => {
      expect(renderWiki(raw)).toBe(`<p>${raw}</p>`);
    },
  );

  it('is not rendered inline (step lines)', () => {
    expect(renderInline('[video|https://v.example/1]')).toBe('[video|https://v.example/1]');
  });
});

describe('unknown and malformed bracket constructs', () => {
  it.each([
    ['[unknown|x]'],
    ['[note]'],
    ['[]'],
    ['['],
    [']'],
    ['[[['],
    [']]]'],
    ['[link|'],
    ['[[Page'],
    ['[ [Page]]'],
    ['[link|https://example.com|x'],
  ])('keeps %j literal', (raw) => {
    expect(renderInline(raw)).toBe(raw);
  });

  it('still renders formatting inside literal brackets', () => {
    expect(renderInline("[not a link '''bold''']")).toBe('[not a link <strong>bold</strong>]');
  });

  it('finds a construct right after a literal bracket', () => {
    expect(renderInline('[[link|https://example.com|x]')).toBe(`[<a href="https://example.com" ${EXT}>x</a>`);
    expect(renderInline('[x [[Page]]')).toBe('[x <a href="/Wiki/Page">Page</a>');
  });
});

describe('renderInline', () => {
  it('has no block structure: headings, lists and paragraphs stay text', () => {
    expect(renderInline('== Heading ==')).toBe('== Heading ==');
    expect(renderInline('* item')).toBe('* item');
    expect(renderInline('# item')).toBe('# item');
  });

  it('renders a line break, should there be one, as <br />', () => {
    expect(renderInline("one '''two'''\nthree\n\nfour")).toBe('one <strong>two</strong><br />three<br /><br />four');
  });

  it('gives the empty string for empty input, and trims', () => {
    expect(renderInline('')).toBe('');
    expect(renderInline(' \n ')).toBe('');
    expect(renderInline('  text  ')).toBe('text');
  });

  it('escapes everything and drops control characters', () => {
    expect(renderInline('<script>alert("1")</script>\u0000')).toBe('&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt;');
  });
});
