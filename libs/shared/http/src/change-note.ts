import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { MAX_CHANGE_SUMMARY_LENGTH } from '@rc/shared-kernel';

type Query = Record<string, unknown>;

/**
 * The `summary_of_change` a write carries, shown in the history: a body field where the write has
 * a body, or a query parameter (any write); the body's wins. The domain checks it (422).
 */
export function changeNoteOf(query: Query, body?: object | null): { summaryOfChange?: unknown } {
  const fromBody = body && typeof body === 'object' ? (body as { summary_of_change?: unknown }).summary_of_change : undefined;
  const raw = fromBody !== undefined ? fromBody : query['summary_of_change'];
  return raw === undefined ? {} : { summaryOfChange: raw };
}

/** The body field `summary_of_change`, on the write DTOs that carry it (documented; its value checked by the domain). */
export function SummaryOfChange(): PropertyDecorator {
  const doc = ApiPropertyOptional({ maxLength: MAX_CHANGE_SUMMARY_LENGTH, description: 'What changed, in a line: shown in the history', example: 'Clearer wording' });
  const allow = Allow();
  return (target, key) => {
    doc(target, key);
    allow(target, key);
  };
}

/** The query parameter `summary_of_change`, for `@ApiQuery` on writes without a body. */
export const SUMMARY_OF_CHANGE_QUERY = {
  name: 'summary_of_change',
  required: false,
  type: String,
  description: `What changed, in a line (at most ${MAX_CHANGE_SUMMARY_LENGTH} characters): shown in the history`,
} as const;

/** A stored revision as the history lists show it (guides and wiki pages alike). */
export interface RevisionEntry {
  readonly revisionid: number;
  readonly date: Date;
  readonly editorId: number;
  readonly summaryOfChange: string | null;
  readonly langid: string;
}

/** The items of `GET …/revisions`: each revision with its author as a UserSummary. */
export function presentRevisions<U>(entries: readonly RevisionEntry[], authorOf: (userId: number) => U) {
  return entries.map((e) => ({
    revisionid: e.revisionid,
    date: Math.floor(e.date.getTime() / 1000),
    author: authorOf(e.editorId),
    summary_of_change: e.summaryOfChange,
    langid: e.langid,
  }));
}
