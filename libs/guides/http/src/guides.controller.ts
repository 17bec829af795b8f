import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBody, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiCreatedResponse, ApiTags, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import {
  AddStep,
  CreateGuide,
  DeleteGuide,
  EditGuide,
  EditStep,
  GUIDE_SORTS,
  GuideNotFoundError,
  GuidePrivateError,
  GuideQueries,
  InvalidGuideError,
  TranslateGuide,
  TranslateStep,
  MarkGuide,
  RemoveStep,
  ReorderSteps,
  SetGuidePublic,
  StepNotFoundError,
  TagGuide,
  ViewGuide,
  type GuideId,
  type GuideSort,
} from '@rc/guides-domain';
import type { Caller } from '@rc/identity-contracts';
import { InvalidParameterError, parseId, parseLangid, parsePage } from '@rc/shared-kernel';
import { ADMIN_REQUIRED, changeNoteOf, CurrentPrincipal, Endpoint, expectedRevision, flag, IdParam, IfMatchRevision, LANGID_BAD_REQUEST, list, optionalId, order, OrderQuery, PageQuery, representsRevision, requiredRevision, revisionRequired, SUMMARY_OF_CHANGE_QUERY, timestamp, wantsPretty, wantsXml } from '@rc/shared-http';
import { GuideWriteDto, LangBodyDto, StepEditDto, StepOrderDto, StepWriteDto, TagDto } from './dto/guide.request.dto.js';
import { GuideResponseDto, GuideSummaryResponseDto, StepResponseDto } from './dto/guide.response.dto.js';
import { editorOf, GuideReader } from './guide-reader.js';
import { PublicGuideBodies } from './public-guide-bodies.js';
import { GuideChangesResponseDto } from './dto/guide-changes.response.dto.js';
import { INCLUDE_DELETED_QUERY, removedGuidesIfAsked } from './guide-changes.js';
import { GuideXml } from './omanual-responses.js';
import { GuideListBodies, stampedList } from './guide-list-bodies.js';
import { ContentStampReader } from '@rc/shared-infra-mikro-orm';

type Query = Record<string, unknown>;

/** A path id that is not a positive integer names no guide. */
export function guideIdOf(raw: string): GuideId {
  const id = parseId(raw);
  if (id === null) throw new GuideNotFoundError();
  return id as GuideId;
}

function stepIdOf(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw new StepNotFoundError();
  return id;
}

/**
 * `order` of `GET /guides`: the original's ASC (default) or DESC by guide id, or one of this
 * service's orders by counts (GUIDE_SORTS), case-insensitive.
 */
function listOrder(query: Query): { order: 'ASC' | 'DESC'; sort?: GuideSort } {
  const raw = query['order'];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  const sort = typeof value === 'string' ? GUIDE_SORTS.find((s) => s === value.toLowerCase()) : undefined;
  if (sort) return { order: 'ASC', sort };
  try {
    return { order: order(query) };
  } catch {
    throw new InvalidParameterError(`Parameter 'order' must be ASC, DESC, ${GUIDE_SORTS.join(', ')}`);
  }
}

const STEP_REVISION = { name: 'revisionid', required: true, type: 'integer', description: "The step's current revision id; a stale one is a 409 whose body is the current step" };
const GUIDE_BODY = { description: 'The full guide (reference §3.5)', type: GuideResponseDto };
const GUIDE_LIST = { description: 'Guide summaries (reference §3.4)', type: GuideSummaryResponseDto, isArray: true };
/** The 403 of a guide the caller may not see (GuidePrivateError). */
const GUIDE_PRIVATE = new GuidePrivateError().message;
const LANGID_QUERY = { name: 'langid', required: false, type: String, description: 'A two-letter language code (`en`, `de`, `fr`, `jp`…): the guide in that language', example: 'de' };
const REVISION = { name: 'revisionid', required: true, type: 'integer', description: 'The current revision id (or its ETag as `If-Match` instead); a stale one is a 409 whose body is the current version' };

@ApiTags('Guides')
@Controller('guides')
export class GuidesController {
  constructor(
    private readonly listBodies: GuideListBodies,
    private readonly stamps: ContentStampReader,
    private readonly reader: GuideReader,
    private readonly bodies: PublicGuideBodies,
    private readonly queries: GuideQueries,
    private readonly view: ViewGuide,
    private readonly create: CreateGuide,
    private readonly editGuide: EditGuide,
    private readonly setPublic: SetGuidePublic,
    private readonly deleteGuide: DeleteGuide,
    private readonly addStep: AddStep,
    private readonly editStep: EditStep,
    private readonly removeStep: RemoveStep,
    private readonly reorder: ReorderSteps,
    private readonly mark: MarkGuide,
    private readonly tag: TagGuide,
    private readonly translateGuide: TranslateGuide,
    private readonly translateStep: TranslateStep,
  ) {}

  @Get()
  @Endpoint({
    summary: 'List public guides',
    description:
      'With `guideids` (first 50), only those, in that order; otherwise `filter` (types, comma-separated), `order`, `modifiedSince`, `limit`, `offset`. `order`: ASC (default) or DESC by guide id, or (extensions of this service) `popular` (views + 20 × favourites + 10 × completions), `views`, `favorites` (most first) or `newest` (most recently published first); ties: the higher guide id first.',
    errors: [400],
  })
  @ApiQuery({ name: 'guideids', required: false, type: String }) @ApiQuery({ name: 'filter', required: false, type: String }) @ApiQuery({ name: 'order', required: false, enum: ['ASC', 'DESC', ...GUIDE_SORTS] })
  @ApiQuery({ name: 'modifiedSince', required: false, type: 'integer' }) @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiQuery(INCLUDE_DELETED_QUERY) @ApiExtraModels(GuideSummaryResponseDto, GuideChangesResponseDto)
  @ApiOkResponse({ description: 'Guide summaries (reference §3.4); `{guides, deleted}` with `modifiedSince` and `includeDeleted`', schema: { oneOf: [{ type: 'array', items: { $ref: getSchemaPath(GuideSummaryResponseDto) } }, { $ref: getSchemaPath(GuideChangesResponseDto) }] } })
  async list(@Query() query: Query, @Req() req: Request) {
    return stampedList(this.listBodies, this.stamps, req, async () => {
      const ids = list(query, 'guideids');
      if (ids) {
        const guideIds = ids.slice(0, 50).map((id) => parseId(id)).filter((id): id is number => id !== null);
        return this.reader.summaries(await this.queries.byIds(guideIds));
      }
      const page = parsePage(query);
      const deleted = await removedGuidesIfAsked(this.queries, query, timestamp(query, 'modifiedSince'), page);
      const guides = await this.reader.summaries(await this.queries.list({ types: list(query, 'filter'), ...listOrder(query), modifiedSince: timestamp(query, 'modifiedSince') }, page));
      return deleted ? { guides, deleted } : guides;
    });
  }

  @Get('featured')
  @Endpoint({ summary: 'Featured guides (flag GUIDE_STARRED)', errors: [400] })
  @ApiOkResponse(GUIDE_LIST)
  @OrderQuery()
  @PageQuery()
  async featured(@Query() query: Query, @Req() req: Request) {
    return stampedList(this.listBodies, this.stamps, req, async () => this.reader.summaries(await this.queries.list({ order: order(query), flag: 'GUIDE_STARRED' }, parsePage(query))));
  }

  @Get(':guideid')
  @IdParam('guideid', 'The guide id')
  @GuideXml(GuideResponseDto, [400, 403, 404], { badRequest: LANGID_BAD_REQUEST, forbidden: GUIDE_PRIVATE })
  @Endpoint({
    summary: 'One guide',
    description: 'Prerequisite guides\' steps come first unless `excludePrerequisiteSteps`. `revisionid` reads a stored revision (anyone for a public guide; for a private one, those who may see it). A private guide is 403 for others. `langid` reads the guide in that language: its translation (title, subject, summary, introduction, conclusion, step titles and lines; the rest is shared by every language), or the guide in its own language when it has none (`langid` in the answer is the language served, `available_langids` lists what exists); an unknown language code is a 400.',
    errors: [400, 403, 404], notFound: 'Guide not found', badRequest: LANGID_BAD_REQUEST, forbidden: GUIDE_PRIVATE,
  })
  @ApiQuery({ name: 'excludePrerequisiteSteps', required: false, type: String }) @ApiQuery({ name: 'revisionid', required: false, type: 'integer' }) @ApiQuery(LANGID_QUERY)
  @ApiQuery({ name: 'stepComments', required: false, type: String, description: 'Presence flag: each step shows at most 20 top-level comments and its `comment_count`' })
  async get(@Param('guideid') raw: string, @Query() query: Query, @CurrentPrincipal() viewer: Caller | null, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const guideId = guideIdOf(raw);
    const revisionid = optionalId(query, 'revisionid');
    const inlinePrerequisites = !flag(query, 'excludePrerequisiteSteps');
    const stepComments = flag(query, 'stepComments');
    const langid = parseLangid(query['langid']);
    // A read of the current version (a 200 or a 304) of a GET is a view; a past revision or a HEAD is not.
    const viewed = () => {
      if (req.method === 'GET') this.bodies.viewed(guideId);
    };
    // JSON reads of the current revision in the guide's own language come from its anonymous body,
    // cached with an ETag (see PublicGuideBodies): as it is, or with a signed-in reader's fields (see
    // readFor). Reads in a language are built each time: no cached body is of one.
    if (revisionid === undefined && langid === undefined && !stepComments && !wantsXml(req) && !wantsPretty(req)) {
      const body =
        viewer === null
          ? await this.bodies.read(guideId, inlinePrerequisites, req, res)
          : await this.bodies.readFor(guideId, inlinePrerequisites, viewer.userId, (editors) => this.view.mayEdit(editors, editorOf(viewer)), res);
      if (body) {
        viewed();
        return body;
      }
    }
    const guide = await this.reader.guide(guideId, viewer, { revisionid, inlinePrerequisites, stepComments, langid });
    representsRevision(res, guide.revisionid, Math.max(guide.modified_date ?? 0, guide.prereq_modified_date ?? 0) || null);
    if (revisionid === undefined) viewed();
    return guide;
  }

  @Post()
  @HttpCode(201)
  @Endpoint({ summary: 'Create a guide (private unless public: true)', token: true, errors: [422] })
  @ApiBody({ type: GuideWriteDto })
  @ApiCreatedResponse(GUIDE_BODY)
  async createGuide(@Body() body: GuideWriteDto, @CurrentPrincipal() principal: Caller) {
    const guide = await this.create.execute({ editor: editorOf(principal)!, fields: body, ...changeNoteOf({}, body) });
    return this.reader.present(guide, principal);
  }

  @Patch(':guideid')
  @IdParam('guideid', 'The guide id')
  @Endpoint({
    summary: 'Edit a guide (author, collaborators, team members, Admins)',
    description:
      'Any subset of the write fields. A no-op keeps the revision. With `langid` other than the guide\'s own language, writes its translation into that language: `title`, `subject`, `summary`, `introduction`, `conclusion` (null or empty: the source\'s text shows again; the other fields are shared by every language: 422) and `source_revisionid` (the revision of the guide it was made from; default the current one); `revisionid` is then the translation\'s, or, for a language without one yet, the guide\'s current revision (the write starts the translation). The answer is the guide in that language.',
    token: true, errors: [400, 403, 404, 409, 422], notFound: 'Guide not found', conflict: GuideResponseDto, badRequest: LANGID_BAD_REQUEST,
  })
  @ApiQuery(REVISION) @IfMatchRevision() @ApiQuery(LANGID_QUERY) @ApiBody({ type: GuideWriteDto })
  @ApiOkResponse(GUIDE_BODY)
  async patch(@Param('guideid') raw: string, @Query() query: Query, @Body() body: GuideWriteDto, @CurrentPrincipal() principal: Caller, @Req() req: Request) {
    const guideId = guideIdOf(raw);
    const langid = parseLangid(query['langid']);
    if (langid !== undefined) {
      const translated = await this.translateGuide.execute({ editor: editorOf(principal)!, guideId, langid, revisionid: expectedRevision(req, query), fields: { ...body }, ...changeNoteOf(query, body) });
      if (translated) return this.reader.present(translated.guide, principal, false, false, langid);
    }
    if (body.source_revisionid !== undefined) throw new InvalidGuideError([{ field: 'source_revisionid', message: 'source_revisionid applies to a translation: send it with langid' }]);
    const guide = await this.editGuide.execute({ editor: editorOf(principal)!, guideId, revisionid: expectedRevision(req, query), fields: body, ...changeNoteOf(query, body) });
    return this.reader.present(guide, principal);
  }

  @Delete(':guideid')
  @IdParam('guideid', 'The guide id')
  @HttpCode(204)
  @Endpoint({ summary: 'Delete a guide (soft; Admin or sole author)', description: 'A guide other guides use as a prerequisite is refused (422).', token: true, errors: [403, 404, 409, 422], notFound: 'Guide not found', conflict: GuideResponseDto, forbidden: 'Only an Admin or the sole author may delete this guide', invalid: revisionRequired() })
  @ApiQuery(REVISION) @IfMatchRevision() @ApiQuery(SUMMARY_OF_CHANGE_QUERY)
  @ApiNoContentResponse({ description: 'Deleted' })
  async remove(@Param('guideid') raw: string, @Query() query: Query, @CurrentPrincipal() principal: Caller, @Req() req: Request): Promise<void> {
    await this.deleteGuide.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), revisionid: expectedRevision(req, query), ...changeNoteOf(query) });
  }

  @Put(':guideid/public')
  @IdParam('guideid', 'The guide id')
  @Endpoint({ summary: 'Publish a guide', token: true, errors: [403, 404, 409, 422], notFound: 'Guide not found', conflict: GuideResponseDto, invalid: revisionRequired() })
  @ApiQuery(REVISION) @IfMatchRevision() @ApiQuery(SUMMARY_OF_CHANGE_QUERY) @ApiOkResponse(GUIDE_BODY)
  publish(@Param('guideid') raw: string, @Query() query: Query, @CurrentPrincipal() principal: Caller, @Req() req: Request) {
    return this.visibility(raw, query, principal, true, req);
  }

  @Delete(':guideid/public')
  @IdParam('guideid', 'The guide id')
  @Endpoint({ summary: 'Make a guide private', token: true, errors: [403, 404, 409, 422], notFound: 'Guide not found', conflict: GuideResponseDto, invalid: revisionRequired() })
  @ApiQuery(REVISION) @IfMatchRevision() @ApiQuery(SUMMARY_OF_CHANGE_QUERY) @ApiOkResponse(GUIDE_BODY)
  unpublish(@Param('guideid') raw: string, @Query() query: Query, @CurrentPrincipal() principal: Caller, @Req() req: Request) {
    return this.visibility(raw, query, principal, false, req);
  }

  @Post(':guideid/steps')
  @IdParam('guideid', 'The guide id')
  @HttpCode(201)
  @Endpoint({ summary: 'Add a step', description: '`orderby` 1 … count + 1 inserts and moves later steps down. A `revisionid`, when given, is checked.', token: true, errors: [400, 403, 404, 409, 422], badRequest: "Parameter 'revisionid' must be a positive integer", notFound: 'Guide not found', conflict: GuideResponseDto })
  @ApiQuery({ name: 'revisionid', required: false, type: 'integer', description: "The guide's current revision id: checked when given (a stale one is a 409)" })
  @ApiBody({ type: StepWriteDto }) @ApiCreatedResponse(GUIDE_BODY)
  async createStep(@Param('guideid') raw: string, @Query() query: Query, @Body() body: StepWriteDto, @CurrentPrincipal() principal: Caller) {
    const guide = await this.addStep.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), revisionid: optionalId(query, 'revisionid'), step: body, ...changeNoteOf(query, body) });
    return this.reader.present(guide, principal);
  }

  @Patch(':guideid/steps/:stepid')
  @IdParam('guideid', 'The guide id')
  @IdParam('stepid', 'The step id')
  @Endpoint({
    summary: 'Edit a step',
    description:
      '`revisionid` is the step\'s; a stale one is a 409 whose body is the current step. With `langid` other than the guide\'s own language, writes the step\'s translation: `title` and `lines` (one text per line of the step, in order: a string or `{text}`; bullets and levels are the step\'s); `revisionid` is the step\'s as that language shows it. The answer is the step in that language.',
    token: true, errors: [400, 403, 404, 409, 422], notFound: 'Step not found', conflict: StepResponseDto, badRequest: LANGID_BAD_REQUEST,
  })
  @ApiQuery(STEP_REVISION) @ApiQuery(LANGID_QUERY) @ApiBody({ type: StepEditDto }) @ApiOkResponse({ description: 'The step', type: StepResponseDto })
  async patchStep(@Param('guideid') raw: string, @Param('stepid') rawStep: string, @Query() query: Query, @Body() body: StepEditDto, @CurrentPrincipal() principal: Caller) {
    const stepId = stepIdOf(rawStep);
    const langid = parseLangid(query['langid']);
    if (langid !== undefined) {
      const translated = await this.translateStep.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), stepId, langid, revisionid: requiredRevision(query), step: { ...body }, ...changeNoteOf(query, body) });
      if (translated) return this.reader.step(translated.guide, stepId);
    }
    const guide = await this.editStep.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), stepId, revisionid: requiredRevision(query), step: body, ...changeNoteOf(query, body) });
    return this.reader.step(guide, stepId);
  }

  @Delete(':guideid/steps/:stepid')
  @IdParam('guideid', 'The guide id')
  @IdParam('stepid', 'The step id')
  @Endpoint({ summary: 'Delete a step', token: true, errors: [403, 404, 409, 422], notFound: 'Step not found', conflict: StepResponseDto, invalid: revisionRequired() })
  @ApiQuery(STEP_REVISION) @ApiQuery(SUMMARY_OF_CHANGE_QUERY) @ApiOkResponse(GUIDE_BODY)
  async deleteStep(@Param('guideid') raw: string, @Param('stepid') rawStep: string, @Query() query: Query, @CurrentPrincipal() principal: Caller) {
    const guide = await this.removeStep.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), stepId: stepIdOf(rawStep), revisionid: requiredRevision(query), ...changeNoteOf(query) });
    return this.reader.present(guide, principal);
  }

  @Put(':guideid/steporder')
  @IdParam('guideid', 'The guide id')
  @Endpoint({ summary: 'Reorder the steps', description: '`stepids` must list every step once.', token: true, errors: [403, 404, 409, 422], notFound: 'Guide not found', conflict: GuideResponseDto })
  @ApiQuery(REVISION) @IfMatchRevision() @ApiBody({ type: StepOrderDto }) @ApiOkResponse(GUIDE_BODY)
  async steporder(@Param('guideid') raw: string, @Query() query: Query, @Body() body: StepOrderDto, @CurrentPrincipal() principal: Caller, @Req() req: Request) {
    const guide = await this.reorder.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), revisionid: expectedRevision(req, query), stepids: body.stepids, ...changeNoteOf(query, body) });
    return this.reader.present(guide, principal);
  }

  @Put(':guideid/completed')
  @IdParam('guideid', 'The guide id')
  @HttpCode(204)
  @Endpoint({ summary: 'Mark the guide completed (once per user; idempotent)', token: true, errors: [404, 422], notFound: 'Guide not found' })
  @ApiBody({ type: LangBodyDto, required: false }) @ApiNoContentResponse({ description: 'Completed' })
  async complete(@Param('guideid') raw: string, @Body() _body: LangBodyDto, @CurrentPrincipal() principal: Caller): Promise<void> {
    await this.mark.execute({ viewer: editorOf(principal)!, guideId: guideIdOf(raw), kind: 'completion', on: true });
  }

  @Delete(':guideid/completed')
  @IdParam('guideid', 'The guide id')
  @HttpCode(204)
  @Endpoint({ summary: 'Undo a completion (idempotent)', token: true, errors: [404], notFound: 'Guide not found' })
  @ApiNoContentResponse({ description: 'Not completed' })
  async uncomplete(@Param('guideid') raw: string, @CurrentPrincipal() principal: Caller): Promise<void> {
    await this.mark.execute({ viewer: editorOf(principal)!, guideId: guideIdOf(raw), kind: 'completion', on: false });
  }

  @Get(':guideid/tags')
  @IdParam('guideid', 'The guide id')
  @Endpoint({ summary: "A guide's tags (alphabetical)", description: 'A private, deleted or unknown guide answers 403 `Guide is private.`, as the original does.', errors: [403], forbidden: GUIDE_PRIVATE })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'string' } } })
  async tags(@Param('guideid') raw: string, @CurrentPrincipal() viewer: Caller | null): Promise<string[]> {
    const id = parseId(raw);
    try {
      if (id === null) throw new GuidePrivateError();
      await this.view.execute({ viewer: editorOf(viewer), guideId: id as GuideId });
    } catch (error) {
      if (error instanceof GuideNotFoundError || error instanceof GuidePrivateError) throw new GuidePrivateError();
      throw error;
    }
    return this.queries.tags(id);
  }

  @Put(':guideid/tag')
  @IdParam('guideid', 'The guide id')
  @Endpoint({ summary: 'Add a tag (Admin)', token: true, errors: [403, 404, 422], notFound: 'Guide not found', forbidden: ADMIN_REQUIRED })
  @ApiBody({ type: TagDto }) @ApiOkResponse(GUIDE_BODY)
  async addTag(@Param('guideid') raw: string, @Body() body: TagDto, @CurrentPrincipal() principal: Caller) {
    const guide = await this.tag.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), tag: body.tag, on: true });
    return this.reader.present(guide, principal);
  }

  @Delete(':guideid/tag')
  @IdParam('guideid', 'The guide id')
  @Endpoint({ summary: 'Remove a tag (Admin)', token: true, errors: [403, 404, 422], notFound: 'Tag not found', forbidden: ADMIN_REQUIRED })
  @ApiBody({ type: TagDto }) @ApiOkResponse(GUIDE_BODY)
  async removeTag(@Param('guideid') raw: string, @Body() body: TagDto, @CurrentPrincipal() principal: Caller) {
    const guide = await this.tag.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), tag: body.tag, on: false });
    return this.reader.present(guide, principal);
  }

  private async visibility(raw: string, query: Query, principal: Caller, isPublic: boolean, req: Request) {
    const guide = await this.setPublic.execute({ editor: editorOf(principal)!, guideId: guideIdOf(raw), revisionid: expectedRevision(req, query), isPublic, ...changeNoteOf(query) });
    return this.reader.present(guide, principal);
  }
}
