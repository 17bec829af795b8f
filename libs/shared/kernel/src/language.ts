import { InvalidInputError } from './errors.js';

/** The site's default language: content is written in it unless it says otherwise. */
export const DEFAULT_LANGID = 'en';

/**
 * The language codes `langid` accepts: the two-letter ISO 639-1 codes, and `jp`, which the original
 * API uses for Japanese (its clients send it; `ja` is accepted too).
 */
export const LANGIDS: ReadonlySet<string> = new Set(
  (
    'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu ' +
    'fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko ' +
    'kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi ' +
    'pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ' +
    'ur uz ve vi vo wa wo xh yi yo za zh zu jp'
  ).split(' '),
);

/** Whether `value` is a language code `langid` accepts. */
export function isLangid(value: unknown): value is string {
  return typeof value === 'string' && LANGIDS.has(value);
}

/** A `langid` that names no language (a 400). */
export class UnknownLanguageError extends InvalidInputError {
  readonly code = 'SHARED.UNKNOWN_LANGUAGE';
  constructor(value: unknown) {
    const shown = typeof value === 'string' ? `'${value.slice(0, 20)}'` : 'it';
    super(`langid ${shown} is not a language code: use two lowercase letters, such as en, de, fr, es, it or jp`);
  }
}

/**
 * The `langid` of a request: `undefined` when absent (or empty); a known language code; otherwise an
 * UnknownLanguageError (400). Repeated parameters take the first.
 */
export function parseLangid(value: unknown): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (!isLangid(raw)) throw new UnknownLanguageError(raw);
  return raw;
}
