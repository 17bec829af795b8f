/** The longest `summary_of_change` a write may carry (guides, steps and wiki pages alike). */
export const MAX_CHANGE_SUMMARY_LENGTH = 255;

/**
 * A write's `summary_of_change`, shown in the history: absent, null or blank is none; otherwise a
 * line of text (no control characters) of at most 255 characters, trimmed, runs of spaces made one.
 * Returns the problem instead when it is not one; each context reports it with its own error.
 */
export function checkChangeSummary(value: unknown): { summary: string | null; problem?: undefined } | { summary?: undefined; problem: string } {
  if (value === undefined || value === null) return { summary: null };
  // eslint-disable-next-line no-control-regex
  if (typeof value !== 'string' || /[\u0000-\u0008\u000b-\u001f\u007f]/.test(value)) return { problem: 'summary_of_change must be a line of text' };
  const summary = value.trim().replace(/\s+/g, ' ');
  if ([...summary].length > MAX_CHANGE_SUMMARY_LENGTH) return { problem: `summary_of_change must be at most ${MAX_CHANGE_SUMMARY_LENGTH} characters` };
  return { summary: summary || null };
}
