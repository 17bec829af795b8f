import type { GuideQueries } from '@rc/guides-domain';
import { InvalidParameterError, type Page } from '@rc/shared-kernel';
import type { GuideTombstoneResponseDto } from './dto/guide-changes.response.dto.js';

type Query = Record<string, unknown>;

/** Whether a presence flag is on: present, and not `0`, `false`, `no` or `off`. */
export function flagOn(query: Query, name: string): boolean {
  if (!Object.prototype.hasOwnProperty.call(query, name)) return false;
  const raw = query[name];
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  return !(typeof value === 'string' && ['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase()));
}

export const INCLUDE_DELETED_QUERY = {
  name: 'includeDeleted',
  required: false,
  type: String,
  description:
    'With `modifiedSince`: the body becomes `{guides, deleted}`, `deleted` listing the guides deleted or made private since then (and not public again), ' +
    'paged with the same `limit` and `offset` (page until both lists are shorter than `limit`). Without it the body is the plain list, as the original API answers.',
};

/**
 * The guides removed (deleted or made private) since `modifiedSince`, when `includeDeleted` asks
 * for them; `null` when it does not (the list keeps its original shape).
 */
export async function removedGuidesIfAsked(queries: GuideQueries, query: Query, since: Date | undefined, page: Page): Promise<GuideTombstoneResponseDto[] | null> {
  if (!flagOn(query, 'includeDeleted')) return null;
  if (!since) throw new InvalidParameterError("Parameter 'includeDeleted' needs 'modifiedSince' (UNIX seconds): the deletions since then");
  const removed = await queries.removedSince(since, page);
  return removed.map((t) => ({ guideid: t.guideid, title: t.title, category: t.category, reason: t.reason, date: Math.floor(t.removedAt.getTime() / 1000) }));
}
