import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiParam, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import {
  CreateWiki,
  DeleteWiki,
  InvalidWikiError,
  EditWiki,
  namespaceOf,
  ReadWikiTranslation,
  RevertWiki,
  TranslateWiki,
  TagWiki,
  ViewWiki,
  WikiQueries,
  WikiTags,
  type CategoryNode,
  type WikiPage,
} from '@rc/catalog-domain';
import type { Request, Response } from 'express';
import type { Caller } from '@rc/identity-contracts';
import { InvalidParameterError, parseLangid, parsePage } from '@rc/shared-kernel';
import { answerOf, changeNoteOf, CurrentPrincipal, Endpoint, expectedRevision, flag, IfMatchRevision, LANGID_BAD_REQUEST, optionalId, PAGE_BAD_REQUEST, PageQuery, representsRevision, requiredRevision, revisionRequired, serveStamped, stampFor, SUMMARY_OF_CHANGE_QUERY, timestamp, wantsPretty } from '@rc/shared-http';
import { WikiCreateDto, WikiEditDto, WikiTagDto } from './wiki.request.dto.js';
import { WikiReader } from './wiki-reader.js';
import { CategoryXml } from './category-xml.js';
import { buildOrderedTree, buildTree, switchedOn, withGuidesInSubtree } from './category-tree.js';
import {
  CATEGORY_TREE,
  CategoryOrderNodeResponseDto,
  CategoryTreeWithTitlesResponseDto,
  LegacyCategoryResponseDto,
  MaintenanceResponseDto,
  WikiFlagResponseDto,
  WikiResponseDto,
  WikiSummaryResponseDto,
} from './wiki.response.dto.js';
import { CategoryTreeBodies, CategoryTreeCache } from './category-tree-cache.js';
import { removedPagesIfAsked, WIKI_INCLUDE_DELETED_QUERY, WikiChangesResponseDto } from './wiki-changes.js';
import { keptPageKey, serveKeptPage, ShownWikiViews, WikiPageBodies, WikiViewCounter } from './wiki-views.js';
import { ContentStampReader } from '@rc/shared-infra-mikro-orm';

type Query = Record<string, unknown>;

const editorOf = (p: Caller | null) => (p ? { userId: p.userId, isAdmin: p.role === 'Admin' } : { userId: 0, isAdmin: false });
const WIKI = { description: 'The full wiki page (reference §3.10)', type: WikiResponseDto };
const DISPLAYS = ['objects', 'leaves', 'hierarchy', 'hierarchyOrder'];
/** The 400 of a `display` that is not one of DISPLAYS. */
const DISPLAY_BAD_REQUEST = "Parameter 'display' must be objects, leaves, hierarchy or hierarchyOrder";
const LANGID_QUERY = { name: 'langid', required: false, type: String, description: 'A two-letter language code (`en`, `de`, `fr`, `jp`…): the page in that language', example: 'de' };
const REVISION = { name: 'revisionid', required: true, type: 'integer', description: 'The current revision id (or its ETag as `If-Match` instead); a stale one is a 409 whose body is the current page' };

@ApiTags('Categories and wikis')
@ApiExtraModels(WikiFlagResponseDto, CategoryTreeWithTitlesResponseDto, CategoryOrderNodeResponseDto, WikiSummaryResponseDto, WikiResponseDto, WikiChangesResponseDto)
@Controller()
export class CatalogController {
  constructor(
    private readonly reader: WikiReader,
    private readonly queries: WikiQueries,
    private readonly tags: WikiTags,
    private readonly view: ViewWiki,
    private readonly create: CreateWiki,
    private readonly edit: EditWiki,
    private readonly remove: DeleteWiki,
    private readonly revert: RevertWiki,
    private readonly tag: TagWiki,
    private readonly tree: CategoryTreeCache,
    private readonly translate: TranslateWiki,
    private readonly translations: ReadWikiTranslation,
    private readonly views: WikiViewCounter,
    private readonly shownViews: ShownWikiViews,
    private readonly pageBodies: WikiPageBodies,
    private readonly stamps: ContentStampReader,
    private readonly treeBodies: CategoryTreeBodies,
  ) {}

  @Get('categories')
  @Endpoint({
    summary: 'The category tree: titles nested, leaves null',
    description:
      '`withDisplayTitles` answers `{hierarchy, display_titles}`; `requireGuides` leaves out the categories with no public guide in their subtree (`requireGuides=0` or `false` is off); `includeStubs` is accepted.',
  })
  @ApiQuery({ name: 'withDisplayTitles', required: false, type: String }) @ApiQuery({ name: 'requireGuides', required: false, type: String })
  @ApiOkResponse({ description: 'The tree, or `{hierarchy, display_titles}` with `withDisplayTitles`', schema: { oneOf: [CATEGORY_TREE, { $ref: getSchemaPath(CategoryTreeWithTitlesResponseDto) }] } })
  async categories(@Query() query: Query, @Req() req: Request) {
    const withDisplayTitles = flag(query, 'withDisplayTitles');
    const body = (nodes: readonly CategoryNode[]) => {
      const hierarchy = buildTree(nodes);
      return withDisplayTitles ? { hierarchy, display_titles: Object.fromEntries(nodes.map((n) => [n.title, n.displayTitle])) } : hierarchy;
    };
    if (switchedOn(query, 'requireGuides')) {
      // Depends on the guides too: built on every request from the cached nodes.
      const [tree, withGuides] = await Promise.all([this.tree.nodes(), this.reader.categoriesWithPublicGuides()]);
      return body(withGuidesInSubtree(tree, withGuides));
    }
    // Kept with the content stamp (see CategoryTreeBodies); `?pretty` is built each time.
    return serveStamped(this.treeBodies, this.stamps, req, async () => {
      const cached = await this.tree.body(withDisplayTitles ? 'display-titles' : 'hierarchy', body);
      return wantsPretty(req) ? cached.value : cached.json;
    });
  }

  @Get('categories/all')
  @Endpoint({ summary: 'All category titles, paged', errors: [400], badRequest: PAGE_BAD_REQUEST })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'string' } } })
  @PageQuery()
  async allCategories(@Query() query: Query): Promise<string[]> {
    return (await this.queries.list('CATEGORY', parsePage(query), {})).map((c) => c.title);
  }

  @Get('categories/:name')
  @CategoryXml(LegacyCategoryResponseDto, [404])
  @Endpoint({ summary: 'A category in the legacy shape (reference §3.9), with its guides', errors: [404], notFound: 'Wiki not found' })
  @ApiParam({ name: 'name' })
  category(@Param('name') name: string, @CurrentPrincipal() viewer: Caller | null) {
    return this.reader.legacyCategory(name, viewer);
  }

  @Get('wikis/maintenance/CATEGORY/:title')
  @Endpoint({
    summary: "A category's maintenance schedules",
    description: "The page's own schedules or, when it has none, those of its closest ancestor that has some (named by `inheritedFrom`); none anywhere: `[]`. `langid`: a two-letter code, anything else reads as `en`.",
    errors: [404],
    notFound: 'Wiki not found',
  })
  @ApiQuery({ name: 'langid', required: false, type: String, example: 'en' }) @ApiOkResponse({ type: MaintenanceResponseDto })
  async maintenance(@Param('title') title: string, @Query() query: Query) {
    const page = await this.view.execute({ namespace: 'CATEGORY', title });
    const found = await this.queries.maintenance(page.id);
    const langid = typeof query['langid'] === 'string' && /^[a-z]{2}$/.test(query['langid']) ? query['langid'] : 'en';
    return {
      schedules: found?.schedules ?? [],
      inheritedFrom: found && found.title !== page.state.title ? found.title : null,
      langid,
      revisionid: found?.revisionid ?? page.state.revisionid,
    };
  }

  @Get('wikis/:namespace')
  @Endpoint({
    summary: 'Pages of a namespace',
    description:
      '`display`: objects (default), leaves, hierarchy (CATEGORY: the nested tree), hierarchyOrder (CATEGORY: ordered `{title, display_title, children}` nodes); `modifiedSince`; paging. USER pages are titled by user id, TEAM pages by team id.',
    errors: [400, 404],
    notFound: 'Wiki not found',
    badRequest: DISPLAY_BAD_REQUEST,
  })
  @ApiQuery({ name: 'display', required: false, enum: DISPLAYS })
  @ApiQuery({ name: 'modifiedSince', required: false, type: 'integer', description: 'UNIX seconds: only pages modified since then, newest first' }) @ApiQuery(WIKI_INCLUDE_DELETED_QUERY)
  @ApiOkResponse({
    description: 'WikiSummary items; the tree with display=hierarchy; ordered nodes with display=hierarchyOrder; `{wikis, deleted}` with `modifiedSince` and `includeDeleted`',
    schema: {
      oneOf: [
        { type: 'array', items: { $ref: getSchemaPath(WikiSummaryResponseDto) } },
        CATEGORY_TREE,
        { type: 'array', items: { $ref: getSchemaPath(CategoryOrderNodeResponseDto) } },
        { $ref: getSchemaPath(WikiChangesResponseDto) },
      ],
    },
  })
  @PageQuery()
  async list(@Param('namespace') raw: string, @Query() query: Query) {
    const namespace = namespaceOf(raw);
    const display = typeof query['display'] === 'string' ? query['display'] : 'objects';
    if (!DISPLAYS.includes(display)) throw new InvalidParameterError(DISPLAY_BAD_REQUEST);
    if (display.startsWith('hierarchy')) {
      if (namespace !== 'CATEGORY') throw new InvalidParameterError(`display=${display} is for the CATEGORY namespace`);
      const nodes = await this.queries.categoryTree();
      return display === 'hierarchy' ? buildTree(nodes) : buildOrderedTree(nodes);
    }
    const page = parsePage(query);
    const since = timestamp(query, 'modifiedSince');
    const deleted = await removedPagesIfAsked(this.queries, query, namespace, since, page);
    const wikis = await this.reader.summaries(await this.queries.list(namespace, page, { modifiedSince: since, leavesOnly: display === 'leaves' }));
    return deleted ? { wikis, deleted } : wikis;
  }

  @Get('wikis/:namespace/:title')
  @Endpoint({
    summary: 'One page',
    description:
      'The title is URL-decoded, underscores read as spaces, dots allowed. `revisionid` reads a stored revision. `langid` reads the page in that language: its translation (display title, description, contents; the rest is shared by every language), or the page in its own language when it has none (`langid` in the answer is the language served, `available_langids` lists what exists); an unknown language code is a 400.',
    errors: [400, 404],
    notFound: 'Wiki not found',
    badRequest: LANGID_BAD_REQUEST,
  })
  @ApiQuery({ name: 'revisionid', required: false, type: 'integer', description: 'A stored revision of the page (any revision id it had)' })
  @ApiQuery(LANGID_QUERY) @ApiOkResponse(WIKI)
  async page(@Param('namespace') ns: string, @Param('title') title: string, @Query() query: Query, @CurrentPrincipal() viewer: Caller | null, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const langid = parseLangid(query['langid']);
    const revisionid = optionalId(query, 'revisionid');
    const namespace = namespaceOf(ns);
    // An anonymous read of the current revision in the page's own language: kept (see WikiPageBodies).
    const window = this.shownViews.window();
    const keeps = viewer === null && langid === undefined && revisionid === undefined && window !== null && this.pageBodies.enabled && !wantsPretty(req);
    const stamp = keeps ? await stampFor(req, this.stamps) : null;
    const key = keptPageKey(namespace, title);
    const kept = stamp === null ? null : this.pageBodies.get(key, stamp);
    if (kept && serveKeptPage(kept, window, req, res, this.views)) return answerOf(kept);
    let page = await this.view.execute({ namespace, title, revisionid: langid === undefined ? revisionid : undefined });
    if (langid !== undefined) {
      const translated = await this.translations.execute(page, langid);
      page = revisionid === undefined || revisionid === translated.state.revisionid ? translated : await this.view.execute({ namespace, title, revisionid });
    }
    const body = await this.reader.present(page, viewer);
    representsRevision(res, body.revisionid, body.modified_date);
    // A read of the current revision (a 200 or a 304) of a GET is a view, counted in memory and written in batches.
    if (revisionid === undefined && req.method === 'GET') this.views.record(page.id);
    // Kept only when built within the window it was asked in (its views are that window's).
    if (stamp !== null && this.shownViews.window() === window) {
      return answerOf(this.pageBodies.put(key, stamp, body, { pageId: page.id, revisionid: body.revisionid, modified: body.modified_date ?? null, window: window! }));
    }
    return body;
  }

  @Post('wikis')
  @HttpCode(201)
  @Endpoint({
    summary: 'Create a page (Admin)',
    description:
      'A title already used in the namespace is a 422. A USER page is titled by the id of an existing user, a TEAM page by a team id. Fields of another namespace (`repairability_score`, `documents`, `maintenance_schedule` of CATEGORY pages, `suppliers` of ITEM pages) are a 422 unless empty.',
    admin: true,
    errors: [400, 422],
    badRequest: LANGID_BAD_REQUEST,
  })
  @ApiQuery({ ...LANGID_QUERY, description: "With `source_revisionid` in the body and a title already used: starts that page's translation into this language" })
  @ApiBody({ type: WikiCreateDto }) @ApiCreatedResponse(WIKI)
  async createPage(@Body() body: WikiCreateDto, @Query() query: Query, @CurrentPrincipal() principal: Caller) {
    const langid = parseLangid(query['langid']);
    // An existing title with `source_revisionid` and `?langid=`: starts that page's translation.
    if (langid !== undefined && body.source_revisionid !== undefined && body.source_revisionid !== null && typeof body.namespace === 'string' && typeof body.title === 'string') {
      const { namespace: _namespace, title: _title, ...fields } = body;
      const translated = await this.translate.execute({ editor: editorOf(principal), namespace: namespaceOf(body.namespace), title: body.title, langid, revisionid: null, fields, ...changeNoteOf(query, body) });
      if (translated) return this.reader.present(translated, principal);
    }
    if (typeof body.namespace === 'string' && body.namespace.toUpperCase() === 'USER' && typeof body.title === 'string' && /^[1-9]\d{0,9}$/.test(body.title.trim()) && !(await this.reader.userExists(Number(body.title)))) {
      throw new InvalidWikiError([{ field: 'title', message: `no user ${body.title.trim()}` }]);
    }
    return this.reader.present(await this.create.execute({ editor: editorOf(principal), fields: body, ...changeNoteOf(query, body) }), principal);
  }

  @Patch('wikis/:namespace/:title')
  @Endpoint({
    summary: 'Edit a page (Admin)',
    description:
      "Write names (`contents`); a no-op keeps the revision; stale → 409 with the current page. With `langid` other than the page's own language, writes its translation into that language: `display_title`, `description`, `contents` (null or empty: the source's text shows again; the other fields are shared by every language: 422) and `source_revisionid`; `revisionid` is then the translation's or, for a language without one yet, the page's current revision (the write starts the translation). The answer is the page in that language.",
    admin: true,
    errors: [400, 404, 409, 422],
    notFound: 'Wiki not found',
    conflict: WikiResponseDto,
    badRequest: LANGID_BAD_REQUEST,
  })
  @ApiQuery(REVISION) @IfMatchRevision() @ApiQuery(LANGID_QUERY) @ApiBody({ type: WikiEditDto }) @ApiOkResponse(WIKI)
  async patch(@Param('namespace') ns: string, @Param('title') title: string, @Query() query: Query, @Body() body: WikiEditDto, @CurrentPrincipal() principal: Caller, @Req() req: Request) {
    const langid = parseLangid(query['langid']);
    if (langid !== undefined) {
      const translated = await this.translate.execute({ editor: editorOf(principal), namespace: namespaceOf(ns), title, langid, revisionid: expectedRevision(req, query), fields: { ...body }, ...changeNoteOf(query, body) });
      if (translated) return this.reader.present(translated, principal);
    }
    const page = await this.edit.execute({ editor: editorOf(principal), namespace: namespaceOf(ns), title, revisionid: expectedRevision(req, query), fields: body, ...changeNoteOf(query, body) });
    return this.reader.present(page, principal);
  }

  @Delete('wikis/:namespace/:title')
  @HttpCode(204)
  @Endpoint({ summary: 'Delete a page (soft; Admin)', description: 'A category with child categories is refused (422).', admin: true, errors: [404, 409, 422], notFound: 'Wiki not found', conflict: WikiResponseDto, invalid: revisionRequired() })
  @ApiQuery(REVISION) @IfMatchRevision() @ApiQuery(SUMMARY_OF_CHANGE_QUERY) @ApiNoContentResponse({ description: 'Deleted' })
  async deletePage(@Param('namespace') ns: string, @Param('title') title: string, @Query() query: Query, @CurrentPrincipal() principal: Caller, @Req() req: Request): Promise<void> {
    await this.remove.execute({ editor: editorOf(principal), namespace: namespaceOf(ns), title, revisionid: expectedRevision(req, query), ...changeNoteOf(query) });
  }

  @Post('wikis/:namespace/:title/revert')
  @HttpCode(200)
  @Endpoint({ summary: 'Restore an older revision as a new one (Admin)', admin: true, errors: [404, 409, 422], notFound: 'Wiki not found', conflict: WikiResponseDto, invalid: revisionRequired() })
  @ApiQuery(REVISION) @IfMatchRevision() @ApiQuery({ name: 'to_revisionid', required: true, type: 'integer' }) @ApiQuery(SUMMARY_OF_CHANGE_QUERY) @ApiOkResponse(WIKI)
  async revertPage(@Param('namespace') ns: string, @Param('title') title: string, @Query() query: Query, @CurrentPrincipal() principal: Caller, @Req() req: Request) {
    const page = await this.revert.execute({
      editor: editorOf(principal),
      namespace: namespaceOf(ns),
      title,
      revisionid: expectedRevision(req, query),
      toRevisionid: requiredRevision(query, 'to_revisionid'),
      ...changeNoteOf(query),
    });
    return this.reader.present(page, principal);
  }

  @Get('wikis/:namespace/:title/tags')
  @Endpoint({ summary: "A page's tags (alphabetical)", errors: [404], notFound: 'Wiki not found' })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'string' } } })
  async pageTags(@Param('namespace') ns: string, @Param('title') title: string): Promise<string[]> {
    const page: WikiPage = await this.view.execute({ namespace: namespaceOf(ns), title });
    return this.tags.list(page.id);
  }

  @Put('wikis/:namespace/:title/tag')
  @Endpoint({ summary: 'Add a tag (Admin)', admin: true, errors: [404, 422], notFound: 'Wiki not found' })
  @ApiBody({ type: WikiTagDto }) @ApiOkResponse(WIKI)
  async addTag(@Param('namespace') ns: string, @Param('title') title: string, @Body() body: WikiTagDto, @CurrentPrincipal() principal: Caller) {
    return this.reader.present(await this.tag.execute({ editor: editorOf(principal), namespace: namespaceOf(ns), title, tag: body.tag, on: true }), principal);
  }

  @Delete('wikis/:namespace/:title/tag')
  @Endpoint({ summary: 'Remove a tag (Admin)', admin: true, errors: [404, 422], notFound: 'Tag not found' })
  @ApiBody({ type: WikiTagDto }) @ApiOkResponse(WIKI)
  async removeTag(@Param('namespace') ns: string, @Param('title') title: string, @Body() body: WikiTagDto, @CurrentPrincipal() principal: Caller) {
    return this.reader.present(await this.tag.execute({ editor: editorOf(principal), namespace: namespaceOf(ns), title, tag: body.tag, on: false }), principal);
  }
}

