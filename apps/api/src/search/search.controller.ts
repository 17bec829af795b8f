import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ContentStampReader } from '@rc/shared-infra-mikro-orm';
import { ApiExtraModels, ApiOkResponse, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { parseLangid, parsePage } from '@rc/shared-kernel';
import { GuideSummaryResponseDto } from '@rc/guides-http';
import { Endpoint, list, PAGE_BAD_REQUEST, serveStampedSince, StampedBodies } from '@rc/shared-http';
import { SearchResponseDto, SuggestResponseDto, WikiSearchResultDto } from './dto/search.response.dto.js';
import { doctypesOf, NO_VALID_DOCTYPE, searchScope, SiteSearch } from './site-search.js';

type Query = Record<string, unknown>;

const LANGID = { name: 'langid', required: false, type: String, example: 'de', description: 'A two-letter language code: search the guides\' and pages\' translations into that language (in its text-search configuration), shown in it; the default language (`en`) or none: the guides and pages themselves. An unknown code is a 400.' };
const QUERY = { name: 'query', description: 'What to look for (URL-encoded). Any text is accepted; one that means nothing finds nothing.' };

/**
 * Search and suggest answers kept with the content stamp (see StampedBodies): one ranked for itself
 * while the stamp reads the same; one built from a ranking kept from earlier (order and total may
 * lag KEPT_PAGE_MS, as documented; items never do) at most KEPT_PAGE_MS after that ranking.
 * Kept gzipped: thousands of distinct queries, each asked again seldom.
 */
export class SearchAnswers extends StampedBodies {
  constructor(maxBytes: number, maxAgeMs: number) {
    super(maxBytes, maxAgeMs, Date.now, { gzip: true });
  }
}

@ApiTags('Search')
@ApiExtraModels(GuideSummaryResponseDto, WikiSearchResultDto)
@Controller()
export class SearchController {
  constructor(
    private readonly site: SiteSearch,
    private readonly answers: SearchAnswers,
    private readonly stamps: ContentStampReader,
  ) {}

  @Get('search/:query')
  @Endpoint({
    summary: 'Full-text search over guides and wiki pages (legacy envelope)',
    description:
      'Web-search syntax: `"exact phrase"`, `or`, `-excluded`. Matches in titles weigh most, then summaries and descriptions, then introductions and page text, then step text. ' +
      'Guides (GuideSummary) and pages are merged best first; only public guides and live pages. `filter`: comma-separated result types ' +
      '(`guide`, `teardown`, `wiki`, `category`/`device`, `item`, `info`; default all). `limit` (1–200, default 20), `offset` (at most 10000).',
    errors: [400],
    badRequest: PAGE_BAD_REQUEST,
  })
  @ApiParam(QUERY)
  @ApiQuery({ name: 'filter', required: false, type: String, example: 'guide,category' }) @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' }) @ApiQuery(LANGID)
  @ApiOkResponse({ description: 'One page of results with the total', type: SearchResponseDto })
  search(@Param('query') query: string, @Query() params: Query, @Req() req: Request) {
    return serveStampedSince(this.answers, this.stamps, req, () => this.site.search(query, searchScope(list(params, 'filter')), parsePage(params), parseLangid(params['langid'])));
  }

  @Get('suggest/:query')
  @Endpoint({
    summary: 'Type-ahead suggestions: guides and pages with words starting with each word typed',
    description:
      'At most 10 results shared between `doctypes` (comma- or pipe-separated: `guide`, `topic` (= `device`, `category`: category pages), `item`, `question` (= `post`), `all` (= topic and guide, the default)), ' +
      'grouped in the order asked. Unknown doctypes are ignored; none valid is a 400. `guideid:<n>` answers that guide when it is public; a blank query answers no results.',
    errors: [400],
    badRequest: NO_VALID_DOCTYPE,
  })
  @ApiParam(QUERY)
  @ApiQuery({ name: 'doctypes', required: false, type: String, example: 'topic,guide' }) @ApiQuery(LANGID)
  @ApiOkResponse({ description: 'The suggestions', type: SuggestResponseDto })
  suggest(@Param('query') query: string, @Query() params: Query, @Req() req: Request) {
    return serveStampedSince(this.answers, this.stamps, req, () => this.site.suggest(query, doctypesOf(list(params, 'doctypes')), parseLangid(params['langid'])));
  }
}
