import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { MAX_CHANGE_SUMMARY_LENGTH } from '@rc/guides-domain';

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

/** The body field, for the write DTOs that carry it. */
export const SummaryOfChange = (): PropertyDecorator => {
  const doc = ApiPropertyOptional({ maxLength: MAX_CHANGE_SUMMARY_LENGTH, description: 'What changed, in a line: shown in the history', example: 'Clearer wording' });
  const allow = Allow();
  return (target, key) => {
    doc(target, key);
    allow(target, key);
  };
};

export const SUMMARY_QUERY = { name: 'summary_of_change', required: false, description: 'What changed, in a line (at most 255 characters): shown in the history' } as const;
