import type SanitizeHtml from 'sanitize-html';

// sanitize-html is CommonJS and requires the ESM-only htmlparser2 12. Node 22 loads that natively
// (require(esm)), but Jest's own module loader refuses it (ERR_REQUIRE_ESM, jestjs/jest#15716), so
// an `import` of sanitize-html breaks every test that reaches this file. Node's own require works
// in both places.
const sanitizeHtml = process.getBuiltinModule('node:module').createRequire(import.meta.url)('sanitize-html') as typeof SanitizeHtml;

/**
 * The second wall behind the wiki renderer (which is safe by construction): an allow-list that is
 * exactly the renderer's vocabulary (see libs/shared/markup/src/html.ts), so sanitizing the
 * renderer's output is the identity, and anything else is removed:
 *   tags        h2 h3 h4 p br strong em ul ol li a div img
 *   attributes  h2-h4: id (Section_[A-Za-z0-9_-]*); a: href, rel (nofollow noopener), target (_blank);
 *               div: class (imageBox_left|center|right, videoBox_center); img: src, alt
 *   URLs        http:, https: and site-relative (`/x`, never `//x`), no whitespace, controls or `\`
 * No style, no on* handlers, no other scheme (javascript:, data:, vbscript:, ...). Disallowed tags
 * are dropped (their text kept, except script/style/... whose content goes too).
 */

const SAFE_URL = /^(?:https?:\/\/[^/?#]|\/(?![/\\]))/i;
// eslint-disable-next-line no-control-regex
const URL_FORBIDDEN = /[\s\u0000-\u001F\u007F-\u009F\\<>"`]/;
const HEADING_ID = /^Section_[A-Za-z0-9_-]*$/;

/** `value` is an http(s) or site-relative URL (the sanitizer's own check, independent of the renderer's). */
export function isAllowedUrl(value: string): boolean {
  return SAFE_URL.test(value) && !URL_FORBIDDEN.test(value);
}

type Attributes = SanitizeHtml.Attributes;

const withoutUrl = (attribs: Attributes, attribute: string): Attributes => {
  const value = attribs[attribute];
  if (value === undefined || isAllowedUrl(value)) return attribs;
  const { [attribute]: _dropped, ...rest } = attribs;
  return rest;
};

/** Links: a vetted href; target only as `_blank`, and then always with rel="nofollow noopener". */
const keepLink = (tagName: string, attribs: Attributes): SanitizeHtml.Tag => {
  const { href } = withoutUrl(attribs, 'href');
  const base: Attributes = href === undefined ? {} : { href };
  return { tagName, attribs: attribs['target'] === '_blank' ? { ...base, rel: 'nofollow noopener', target: '_blank' } : base };
};

const keepImage = (tagName: string, attribs: Attributes): SanitizeHtml.Tag => ({ tagName, attribs: withoutUrl(attribs, 'src') });

const keepHeadingId = (tagName: string, attribs: Attributes): SanitizeHtml.Tag => {
  if (attribs['id'] === undefined || HEADING_ID.test(attribs['id'])) return { tagName, attribs };
  const { id: _dropped, ...rest } = attribs;
  return { tagName, attribs: rest };
};

const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: ['h2', 'h3', 'h4', 'p', 'br', 'strong', 'em', 'ul', 'ol', 'li', 'a', 'div', 'img'],
  allowedAttributes: {
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    a: ['href', 'rel', 'target'],
    div: ['class'],
    img: ['src', 'alt'],
  },
  allowedClasses: { div: ['imageBox_left', 'imageBox_center', 'imageBox_right', 'videoBox_center'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: {},
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  selfClosing: ['br', 'img'],
  // The renderer's URL policy again (sanitize-html alone would let `x/y`, `#x` and `?x` through),
  // the link attributes' only values, and the heading id pattern.
  transformTags: { a: keepLink, img: keepImage, h2: keepHeadingId, h3: keepHeadingId, h4: keepHeadingId },
  // sanitize-html re-escapes text as & < > only; quotes are escaped too, like the renderer does.
  textFilter: (text) => text.replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
};

/** Sanitizes rendered wiki HTML against the renderer's allow-list. */
export function sanitizeRenderedHtml(html: string): string {
  return html === '' ? '' : sanitizeHtml(html, OPTIONS);
}
