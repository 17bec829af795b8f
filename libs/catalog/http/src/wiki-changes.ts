import { ApiProperty } from '@nestjs/swagger';
import type { Namespace, WikiQueries } from '@rc/catalog-domain';
import { InvalidParameterError, type Page } from '@rc/shared-kernel';
import { switchedOn } from './category-tree.js';
import { WikiSummaryResponseDto } from './wiki.response.dto.js';

/** A deleted page: a copy made before `date` must remove it. */
export class WikiTombstoneResponseDto {
  @ApiProperty({ type: 'integer', example: 3 }) wikiid!: number;
  @ApiProperty({ example: 'CATEGORY' }) namespace!: string;
  @ApiProperty({ description: 'Its title when it was deleted', example: 'iPhone 12' }) title!: string;
  @ApiProperty({ description: 'When it was deleted (UNIX seconds)', example: 1764000000 }) date!: number;
}

/** `GET /wikis/{namespace}?modifiedSince=…&includeDeleted`: the pages changed since then, and those deleted since then. */
export class WikiChangesResponseDto {
  @ApiProperty({ type: [WikiSummaryResponseDto], description: 'Pages modified since then, newest first (the page asked for)' }) wikis!: WikiSummaryResponseDto[];
  @ApiProperty({ type: [WikiTombstoneResponseDto], description: 'Pages deleted since then and not live again, newest first, paged with the same `limit` and `offset`' })
  deleted!: WikiTombstoneResponseDto[];
}

export const WIKI_INCLUDE_DELETED_QUERY = {
  name: 'includeDeleted',
  required: false,
  type: String,
  description:
    'With `modifiedSince` (display objects or leaves): the body becomes `{wikis, deleted}`, `deleted` listing the pages of the namespace deleted since then (and not live again), ' +
    'paged with the same `limit` and `offset` (page until both lists are shorter than `limit`). Without it the body is the plain list, as the original API answers.',
};

/** The pages deleted since `modifiedSince` when `includeDeleted` asks for them; `null` when it does not. */
export async function removedPagesIfAsked(queries: WikiQueries, query: Record<string, unknown>, namespace: Namespace, since: Date | undefined, page: Page): Promise<WikiTombstoneResponseDto[] | null> {
  if (!switchedOn(query, 'includeDeleted')) return null;
  if (!since) throw new InvalidParameterError("Parameter 'includeDeleted' needs 'modifiedSince' (UNIX seconds): the deletions since then");
  const removed = await queries.removedSince(namespace, since, page);
  return removed.map((t) => ({ wikiid: t.id, namespace: t.namespace, title: t.title, date: Math.floor(t.removedAt.getTime() / 1000) }));
}
