import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { PageTags, type TagUse } from '@rc/catalog-contracts';
import { MikroOrmGuideTagUses } from '@rc/guides-infra-mikro-orm';
import { Endpoint, order, PageQuery } from '@rc/shared-http';
import { parsePage } from '@rc/shared-kernel';

/**
 * The site's tags in the order they were first used: `sources` each give their tags with a first
 * use, and a tag given in several places counts from its earliest.
 */
export function tagsInOrder(sources: readonly (readonly TagUse[])[], direction: 'ASC' | 'DESC'): string[] {
  const first = new Map<string, number>();
  for (const use of sources.flat()) {
    const at = use.firstUsedAt.getTime();
    if (!first.has(use.tag) || at < first.get(use.tag)!) first.set(use.tag, at);
  }
  const sign = direction === 'DESC' ? -1 : 1;
  return [...first].sort(([ta, a], [tb, b]) => sign * (a - b) || (ta < tb ? -1 : ta > tb ? 1 : 0)).map(([tag]) => tag);
}

/** `GET /tags`: the tags of public guides and of live wiki pages (the catalog's, through its published PageTags). */
@ApiTags('Guides')
@Controller('tags')
export class TagsController {
  constructor(
    private readonly guideTags: MikroOrmGuideTagUses,
    private readonly pageTags: PageTags,
  ) {}

  @Get()
  @Endpoint({
    summary: 'Every tag in use, in the order first used',
    description: 'Tags of public guides and of wiki pages, each once, from its first use (`order=DESC`: newest first); paged (`limit` at most 200).',
    errors: [400],
  })
  @ApiQuery({ name: 'order', required: false, enum: ['ASC', 'DESC'] })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'string' }, example: ['battery', 'screen'] } })
  @PageQuery()
  async list(@Query() query: Record<string, unknown>): Promise<string[]> {
    const page = parsePage(query);
    const direction = order(query);
    const [guides, pages] = await Promise.all([this.guideTags.firstUses(), this.pageTags.firstUses()]);
    return tagsInOrder([guides, pages], direction).slice(page.offset, page.offset + page.limit);
  }
}
