import { toPlainText } from '@rc/shared-markup';

/** Most UTF-8 bytes of step text a guide's search document holds (a tsvector is at most 1 MB). */
export const MAX_STEPS_TEXT_BYTES = 200 * 1024;

interface StepText {
  readonly title: string;
  readonly lines: readonly { readonly text: string }[];
}

/**
 * What the search index reads of a guide's steps (`guides.steps_text`): each step's title and the
 * plain text of its lines (markup dropped), one per line, in step order, cut at
 * {@link MAX_STEPS_TEXT_BYTES} on a line boundary.
 */
export function stepsPlainText(steps: readonly StepText[]): string {
  const out: string[] = [];
  let bytes = 0;
  for (const step of steps) {
    for (const text of [step.title, ...step.lines.map((line) => toPlainText(line.text))]) {
      const trimmed = text.trim();
      if (!trimmed) continue;
      const size = Buffer.byteLength(trimmed, 'utf8') + 1;
      if (bytes + size > MAX_STEPS_TEXT_BYTES) return out.join('\n');
      out.push(trimmed);
      bytes += size;
    }
  }
  return out.join('\n');
}
