import { renderWiki } from './index.js';

const lines = (...html: string[]) => html.join('\n');

describe('renderWiki: empty input', () => {
  it.each([[''], [' '], ['\n\n\n'], [' \t \n \r\n '], ['\u0000\u0001'], ['\u00A0\u2028']])('%j renders as the empty string', (raw) => {
    expect(renderWiki(raw)).toBe('');
  });
});

describe('renderWiki: paragraphs', () => {
  it('wraps text in a paragraph', () => {
    expect(renderWiki('Hello world')).toBe('<p>Hello world</p>');
  });

  it('separates paragraphs by blank lines, and joins lines inside one with <br />', () => {
    expect(renderWiki('one\ntwo\n\nthree\n \n\n\nfour')).toBe(lines('<p>one<br />two</p>', '<p>three</p>', '<p>four</p>'));
  });

  it('trims the lines and ignores leading and trailing blank lines', () => {
    expect(renderWiki('\n\n   one   \n\ttwo\t\n\n')).toBe('<p>one<br />two</p>');
  });

  it('treats CR LF like LF', () => {
    expect(renderWiki('one\r\ntwo\r\n\r\nthree')).toBe(lines('<p>one<br />two</p>', '<p>three</p>'));
  });

  it('escapes all text', () => {
    expect(renderWiki(`<b>"it's" & co</b>`)).toBe('<p>&lt;b&gt;&quot;it&#39;s&quot; &amp; co&lt;/b&gt;</p>');
  });

  it('does not decode entities: they are text', () => {
    expect(renderWiki('&lt;script&gt; &#106; &amp;')).toBe('<p>&amp;lt;script&amp;gt; &amp;#106; &amp;amp;</p>');
  });

  it('drops control characters, keeps tabs', () => {
    expect(renderWiki('a\u0000b\u0008c\td')).toBe('<p>abc\td</p>');
  });
});

describe('renderWiki: headings', () => {
  it.each([
    ['== Heading Text ==', '<h2 id="Section_Heading_Text">Heading Text</h2>'],
    ['=== Sub heading ===', '<h3 id="Section_Sub_heading">Sub heading</h3>'],
    ['==== Deep ====', '<h4 id="Section_Deep">Deep</h4>'],
    ['==No spaces==', '<h2 id="Section_No_spaces">No spaces</h2>'],
    ['  == Indented ==  ', '<h2 id="Section_Indented">Indented</h2>'],
    ['===== Five =====', '<h4 id="Section__Five_">= Five =</h4>'],
    ['=== Uneven ==', '<h2 id="Section__Uneven">= Uneven</h2>'],
    ['== A  b\tc ==', '<h2 id="Section_A_b_c">A  b\tc</h2>'],
  ])('%j', (raw, html) => {
    expect(renderWiki(raw)).toBe(html);
  });

  it('builds the id from the text: whitespace as _, only [A-Za-z0-9_-] kept', () => {
    expect(renderWiki("== Step 1: remove the 'back' cover (T5-screws) & café ==")).toBe(
      '<h2 id="Section_Step_1_remove_the_back_cover_T5-screws__caf">Step 1: remove the &#39;back&#39; cover (T5-screws) &amp; café</h2>',
    );
  });

  it('renders inline markup in the heading; the id is from its text', () => {
    expect(renderWiki("== '''Bold''' and [[Page|a link]] ==")).toBe(
      '<h2 id="Section_Bold_and_a_link"><strong>Bold</strong> and <a href="/Wiki/Page">a link</a></h2>',
    );
  });

  it('escapes heading text and keeps hostile text out of the id', () => {
    expect(renderWiki('== <script>alert("x")</script> ==')).toBe(
      '<h2 id="Section_scriptalertxscript">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</h2>',
    );
    expect(renderWiki('== " onmouseover="alert(1) ==')).toBe('<h2 id="Section__onmouseoveralert1">&quot; onmouseover=&quot;alert(1)</h2>');
  });

  it('keeps images and videos literal in headings', () => {
    expect(renderWiki('== [image|1] ==')).toBe('<h2 id="Section_image1">[image|1]</h2>');
  });

  it.each([['='], ['=='], ['===='], ['= single ='], ['== =='], ['==  =='], ['== open'], ['close =='], ['======']])(
    '%j is not a heading',
    (raw) => {
      expect(renderWiki(raw)).toMatch(/^<p>/);
    },
  );

  it('ends a paragraph or a list', () => {
    expect(renderWiki('text\n== H ==\n* a\n== I ==\nmore')).toBe(
      lines('<p>text</p>', '<h2 id="Section_H">H</h2>', '<ul><li>a</li></ul>', '<h2 id="Section_I">I</h2>', '<p>more</p>'),
    );
  });
});

describe('renderWiki: lists', () => {
  it('renders unordered and ordered lists', () => {
    expect(renderWiki('* a\n* b')).toBe('<ul><li>a</li><li>b</li></ul>');
    expect(renderWiki('# a\n# b')).toBe('<ol><li>a</li><li>b</li></ol>');
  });

  it('nests one level per marker character', () => {
    expect(renderWiki('* a\n** a1\n** a2\n*** a2x\n* b')).toBe(
      '<ul><li>a<ul><li>a1</li><li>a2<ul><li>a2x</li></ul></li></ul></li><li>b</li></ul>',
    );
  });

  it('mixes kinds by marker character', () => {
    expect(renderWiki('# one\n#* bullet\n#* bullet\n# two\n## sub')).toBe(
      '<ol><li>one<ul><li>bullet</li><li>bullet</li></ul></li><li>two<ol><li>sub</li></ol></li></ol>',
    );
  });

  it('switches lists when the marker kind changes at a level', () => {
    expect(renderWiki('* a\n# b')).toBe(lines('<ul><li>a</li></ul>', '<ol><li>b</li></ol>'));
    expect(renderWiki('* a\n** b\n*# c')).toBe('<ul><li>a<ul><li>b</li></ul><ol><li>c</li></ol></li></ul>');
  });

  it('opens missing levels at once (a list starting deep)', () => {
    expect(renderWiki('** deep\n* top')).toBe('<ul><li><ul><li>deep</li></ul></li><li>top</li></ul>');
  });

  it('caps nesting at six levels', () => {
    expect(renderWiki('********** deep')).toBe(`${'<ul><li>'.repeat(6)}deep${'</li></ul>'.repeat(6)}`);
  });

  it('needs a space or tab after the marker, in column 0', () => {
    expect(renderWiki('*not a list')).toBe('<p>*not a list</p>');
    expect(renderWiki('#hashtag')).toBe('<p>#hashtag</p>');
    expect(renderWiki(' * indented')).toBe('<p>* indented</p>');
    expect(renderWiki('*\ttab')).toBe('<ul><li>tab</li></ul>');
    expect(renderWiki('* ')).toBe('<ul><li></li></ul>');
  });

  it('ends at a blank line or a text line', () => {
    expect(renderWiki('* a\n\n* b')).toBe(lines('<ul><li>a</li></ul>', '<ul><li>b</li></ul>'));
    expect(renderWiki('* a\ntext\n* b')).toBe(lines('<ul><li>a</li></ul>', '<p>text</p>', '<ul><li>b</li></ul>'));
  });

  it('renders inline markup and escapes text in items', () => {
    expect(renderWiki("* '''b''' [[P]] <i>")).toBe('<ul><li><strong>b</strong> <a href="/Wiki/P">P</a> &lt;i&gt;</li></ul>');
  });

  it('allows images in items', () => {
    expect(renderWiki('* [image|3]')).toBe('<ul><li><div class="imageBox_center"><img src="/igi/3.medium" alt="" /></div></li></ul>');
  });

  it('keeps formatting to its line', () => {
    expect(renderWiki("* '''a\n* b'''")).toBe('<ul><li>&#39;&#39;&#39;a</li><li>b&#39;&#39;&#39;</li></ul>');
  });
});

describe('renderWiki: images and videos are blocks', () => {
  it('renders an image alone as a block', () => {
    expect(renderWiki('[image|123]')).toBe('<div class="imageBox_center"><img src="/igi/123.medium" alt="" /></div>');
  });

  it('splits a paragraph around an image', () => {
    expect(renderWiki('before [image|1|align=left] after\nnext line')).toBe(
      lines('<p>before</p>', '<div class="imageBox_left"><img src="/igi/1.medium" alt="" /></div>', '<p>after<br />next line</p>'),
    );
  });

  it('drops the empty paragraphs around media', () => {
    expect(renderWiki('[image|1]\n[video|https://v.example/1]\n \n[image|2]')).toBe(
      lines(
        '<div class="imageBox_center"><img src="/igi/1.medium" alt="" /></div>',
        '<div class="videoBox_center"><a href="https://v.example/1" rel="nofollow noopener" target="_blank">video</a></div>',
        '<div class="imageBox_center"><img src="/igi/2.medium" alt="" /></div>',
      ),
    );
  });

  it('closes formatting around media and reopens it after', () => {
    expect(renderWiki("'''bold [image|1] still bold'''")).toBe(
      lines('<p><strong>bold </strong></p>', '<div class="imageBox_center"><img src="/igi/1.medium" alt="" /></div>', '<p><strong> still bold</strong></p>'),
    );
  });
});

describe('renderWiki: a whole document', () => {
  it('renders every construct together', () => {
    const raw = [
      '== Introduction ==',
      "This guide shows how to replace the '''battery''' of the ''iPhone 6''.",
      'See [[Category:iPhone 6|the device page]] first.',
      '',
      '=== Tools ===',
      '* [product|IF145-278|Pro Tech Toolkit]',
      '* [[Spudger]]',
      '** [link|https://example.com/spudger|buy one]',
      '# [guide|1234|Opening procedure]',
      '',
      '[image|55|size=large|align=right]',
      '[video|https://www.youtube.com/watch?v=x&t=1]',
    ].join('\n');
    expect(renderWiki(raw)).toBe(
      lines(
        '<h2 id="Section_Introduction">Introduction</h2>',
        '<p>This guide shows how to replace the <strong>battery</strong> of the <em>iPhone 6</em>.<br />See <a href="/Device/iPhone_6">the device page</a> first.</p>',
        '<h3 id="Section_Tools">Tools</h3>',
        '<ul><li><a href="/Store/Product/IF145-278">Pro Tech Toolkit</a></li><li><a href="/Wiki/Spudger">Spudger</a><ul><li><a href="https://example.com/spudger" rel="nofollow noopener" target="_blank">buy one</a></li></ul></li></ul>',
        '<ol><li><a href="/Guide/1234">Opening procedure</a></li></ol>',
        '<div class="imageBox_right"><img src="/igi/55.large" alt="" /></div>',
        '<div class="videoBox_center"><a href="https://www.youtube.com/watch?v=x&amp;t=1" rel="nofollow noopener" target="_blank">video</a></div>',
      ),
    );
  });
});
