/**
 * URL policy. A URL reaches an `href` or `src` only if it is
 *   - absolute `http:` / `https:` (scheme in any case, then `//` and a host), or
 *   - site-relative: a single `/` followed by anything but a second `/` (so never
 *     protocol-relative `//host`),
 * and it contains no whitespace, no control character, no backslash and none of `< > " \``
 * (browsers silently drop tabs and newlines inside URLs and read `\` as `/`, which is how
 * `java\tscript:` or `/\evil.example` get smuggled past naive checks: such URLs are refused,
 * not repaired). Apostrophes are percent-encoded. Anything else (`javascript:`, `data:`,
 * `vbscript:`, `mailto:`, entity-encoded schemes such as `&#106;avascript:`, relative paths without
 * a leading slash, ...) is refused: the caller then renders the markup as literal text.
 */

const MAX_URL_LENGTH = 2048;
// Unicode whitespace (\s covers NBSP, U+2028/9, BOM, ...), ASCII and C1 controls, and the
// characters that may never appear unencoded in an attribute-borne URL.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\s\u0000-\u001F\u007F-\u009F\\<>"`]/;
const ABSOLUTE = /^https?:\/\/[^/?#]/i;

/** The URL, cleaned for use in an attribute, if it is absolute http(s); otherwise null. */
export function safeAbsoluteUrl(candidate: string): string | null {
  const url = candidate.trim();
  if (url.length === 0 || url.length > MAX_URL_LENGTH || FORBIDDEN.test(url) || !ABSOLUTE.test(url)) return null;
  return url.replace(/'/g, '%27');
}

/** The URL, cleaned for use in an attribute, if it is absolute http(s) or site-relative; otherwise null. */
export function safeUrl(candidate: string): string | null {
  const url = candidate.trim();
  if (url.startsWith('/')) {
    if (url.length > MAX_URL_LENGTH || url.startsWith('//') || FORBIDDEN.test(url)) return null;
    return url.replace(/'/g, '%27');
  }
  return safeAbsoluteUrl(url);
}

/**
 * One path segment: whitespace runs become `_` (wiki style), then everything outside the RFC 3986
 * unreserved set is percent-encoded (encodeURIComponent plus `! ' ( ) *`).
 */
export function pathSegment(text: string): string {
  return encodeURIComponent(text.trim().replace(/\s+/g, '_')).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
