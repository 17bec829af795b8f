const SPECIAL = /[&<>"']/;

/**
 * Escapes the five HTML-significant characters. Every piece of user text goes through this on
 * its way out (text nodes and attribute values alike), so no input can open a tag or leave an
 * attribute value.
 */
export function escapeHtml(text: string): string {
  if (!SPECIAL.test(text)) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    let entity: string;
    switch (text.charCodeAt(i)) {
      case 38: entity = '&amp;'; break; // &
      case 60: entity = '&lt;'; break; // <
      case 62: entity = '&gt;'; break; // >
      case 34: entity = '&quot;'; break; // "
      case 39: entity = '&#39;'; break; // '
      default: continue;
    }
    out += text.slice(from, i) + entity;
    from = i + 1;
  }
  return out + text.slice(from);
}

// Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * Control characters other than tab and line feed (C0, DEL and C1) are dropped; a carriage return
 * (alone or before a line feed) is a line break. Lone UTF-16 surrogates, which no encoder can
 * represent, become U+FFFD.
 */
export function normalizeSource(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
