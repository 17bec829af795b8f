import { createTwoFilesPatch, diffArrays } from 'diff';

/**
 * A run of lines a change keeps (`context`), adds or removes. Every line of both sides is in
 * exactly one run, in order: the runs rebuild either side (context and removed runs give the
 * old text, context and added runs the new one).
 */
export interface LineRun<T = string> {
  readonly type: 'context' | 'added' | 'removed';
  readonly lines: T[];
}

/** The lines of a text, split at each newline (so that joining them with newlines gives it back); an empty text has none. */
export function textLines(text: string): string[] {
  return text ? text.split('\n') : [];
}

/** Line-level changes between two texts; `applyRuns(runs).join('\n')` is `to`. */
export function lineRuns(from: string, to: string): LineRun[] {
  return itemRuns(textLines(from), textLines(to), (a, b) => a === b);
}

/** Item-level changes between two lists, items compared with `same` (jsdiff's array diff). */
export function itemRuns<T>(from: readonly T[], to: readonly T[], same: (a: T, b: T) => boolean): LineRun<T>[] {
  return diffArrays([...from], [...to], { comparator: same }).map((change) => ({
    type: change.added ? 'added' : change.removed ? 'removed' : 'context',
    lines: [...(change.value as T[])],
  }));
}

/** The new side of runs: context and added lines, in order. */
export function applyRuns<T>(runs: readonly LineRun<T>[]): T[] {
  return runs.flatMap((run) => (run.type === 'removed' ? [] : run.lines));
}

/** A unified diff (three lines of context) of two texts, with headers naming both sides. */
export function unifiedDiff(fromName: string, toName: string, from: string, to: string): string {
  const end = (text: string) => (text && !text.endsWith('\n') ? `${text}\n` : text);
  return createTwoFilesPatch(fromName, toName, end(from), end(to), undefined, undefined, { context: 3 });
}
