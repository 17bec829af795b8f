import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CompareWikiRevisions, namespaceOf, WikiHistory, type WikiState } from '@rc/catalog-domain';
import { parsePage } from '@rc/shared-kernel';
import { Endpoint, idRequired, lineRuns, PAGE_BAD_REQUEST, presentRevisions, requiredId, storedValueProperty, unifiedDiff, UserSummaryResponseDto } from '@rc/shared-http';
import { WikiReader } from './wiki-reader.js';

type Query = Record<string, unknown>;

/** The fields a page diff compares, by their write names. */
const FIELDS = {
  display_title: 'displayTitle',
  description: 'description',
  contents: 'contents',
  image: 'imageId',
  flags: 'flags',
  info: 'info',
  related: 'related',
  parentid: 'parentId',
} as const satisfies Record<string, keyof WikiState>;
const TEXT_FIELDS = ['description', 'contents'];

/** The difference between two revisions of a page: changed fields (markup line by line) and a unified diff of the contents. */
export function wikiDiffBody(from: WikiState, to: WikiState) {
  const json = (v: unknown) => JSON.stringify(v);
  const fields = (Object.keys(FIELDS) as (keyof typeof FIELDS)[]).flatMap((field) => {
    const a = from[FIELDS[field]];
    const b = to[FIELDS[field]];
    if (json(a) === json(b)) return [];
    return [TEXT_FIELDS.includes(field) ? { field, from: a, to: b, lines: lineRuns(String(a ?? ''), String(b ?? '')) } : { field, from: a, to: b }];
  });
  const name = (s: WikiState) => `${s.namespace}/${s.title}@${s.revisionid}`;
  return { wikiid: to.id, from_revisionid: from.revisionid, to_revisionid: to.revisionid, fields, unified: unifiedDiff(name(from), name(to), from.contents, to.contents) };
}

const ANY_VALUE = storedValueProperty('A field value as stored: a string, number, list or null');

class WikiRevisionResponseDto {
  @ApiProperty({ type: 'integer', example: 2042 }) revisionid!: number;
  @ApiProperty({ description: 'UNIX seconds: when it was saved', example: 1764150000 }) date!: number;
  @ApiProperty({ type: UserSummaryResponseDto, description: 'Who saved it' }) author!: UserSummaryResponseDto;
  @ApiProperty({ type: String, nullable: true, description: 'What the editor said of the change', example: 'Added the teardown link' }) summary_of_change!: string | null;
  @ApiProperty({ example: 'en' }) langid!: string;
}

class WikiTextRunResponseDto {
  @ApiProperty({ enum: ['context', 'added', 'removed'] }) type!: string;
  @ApiProperty({ type: [String] }) lines!: string[];
}

class WikiFieldChangeResponseDto {
  @ApiProperty({ enum: Object.keys(FIELDS), example: 'contents' }) field!: string;
  @ApiProperty(ANY_VALUE) from!: unknown;
  @ApiProperty(ANY_VALUE) to!: unknown;
  @ApiPropertyOptional({ type: [WikiTextRunResponseDto], description: 'description and contents: the change line by line' }) lines?: WikiTextRunResponseDto[];
}

class WikiDiffResponseDto {
  @ApiProperty({ type: 'integer' }) wikiid!: number;
  @ApiProperty({ type: 'integer' }) from_revisionid!: number;
  @ApiProperty({ type: 'integer' }) to_revisionid!: number;
  @ApiProperty({ type: [WikiFieldChangeResponseDto] }) fields!: WikiFieldChangeResponseDto[];
  @ApiProperty({ description: 'A unified diff of the contents (wiki markup)', example: '--- WIKI/Soldering@1\n+++ WIKI/Soldering@2\n@@ -1,1 +1,1 @@\n-Old\n+New\n' }) unified!: string;
}

/** A page's history: its stored revisions, and the difference between two of them. */
@ApiTags('Categories and wikis')
@Controller('wikis')
export class WikiHistoryController {
  constructor(
    private readonly history: WikiHistory,
    private readonly compare: CompareWikiRevisions,
    private readonly reader: WikiReader,
  ) {}

  @Get(':namespace/:title/revisions')
  @Endpoint({ summary: "A page's revisions, newest first", description: 'Paged (`limit`, `offset`).', errors: [400, 404], notFound: 'Wiki not found', badRequest: PAGE_BAD_REQUEST })
  @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ type: WikiRevisionResponseDto, isArray: true })
  async revisions(@Param('namespace') ns: string, @Param('title') title: string, @Query() query: Query) {
    const entries = await this.history.execute({ namespace: namespaceOf(ns), title, page: parsePage(query) });
    return presentRevisions(entries, await this.reader.authors(entries.map((e) => e.editorId)));
  }

  @Get(':namespace/:title/diff')
  @Endpoint({
    summary: 'What changed between two revisions of a page',
    description: 'The changed fields (description and contents line by line) and a unified diff of the contents. Either revision may be the older.',
    errors: [400, 404],
    notFound: 'Revision not found',
    badRequest: idRequired('from'),
  })
  @ApiQuery({ name: 'from', required: true, type: 'integer', description: 'A revision id of the page' }) @ApiQuery({ name: 'to', required: true, type: 'integer', description: 'A revision id of the page' })
  @ApiOkResponse({ type: WikiDiffResponseDto })
  async diff(@Param('namespace') ns: string, @Param('title') title: string, @Query() query: Query) {
    const namespace = namespaceOf(ns);
    const from = requiredId(query, 'from');
    const to = requiredId(query, 'to');
    const revisions = await this.compare.execute({ namespace, title, from, to });
    return wikiDiffBody(revisions.from, revisions.to);
  }
}
