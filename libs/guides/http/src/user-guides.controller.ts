import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { GuideQueries, MarkGuide } from '@rc/guides-domain';
import { UserSummaries, type Caller } from '@rc/identity-contracts';
import { parsePage } from '@rc/shared-kernel';
import { CurrentPrincipal, Endpoint, IdParam, order, OrderQuery, PAGE_BAD_REQUEST, PageQuery } from '@rc/shared-http';
import { LangBodyDto } from './dto/guide.request.dto.js';
import { FavoriteResponseDto, GuideSummaryResponseDto } from './dto/guide.response.dto.js';
import { editorOf, GuideReader } from './guide-reader.js';
import { guideIdOf } from './guides.controller.js';

type Query = Record<string, unknown>;

const SUMMARIES = { description: 'Guide summaries', type: GuideSummaryResponseDto, isArray: true };
const FAVORITES = { description: '[{date, guide}], newest first', type: FavoriteResponseDto, isArray: true };

/** Guides seen from a user: their own, their favourites, their completions. */
@ApiTags('Guides')
@Controller()
export class UserGuidesController {
  constructor(
    private readonly reader: GuideReader,
    private readonly queries: GuideQueries,
    private readonly mark: MarkGuide,
    private readonly users: UserSummaries,
  ) {}

  @Get('user/guides')
  @Endpoint({ summary: "The current user's guides, private ones included", token: true, appId: true, errors: [400] })
  @ApiOkResponse(SUMMARIES)
  @OrderQuery()
  @PageQuery()
  async mine(@Query() query: Query, @CurrentPrincipal() principal: Caller) {
    return this.reader.summaries(await this.queries.byAuthor(principal.userId, parsePage(query), order(query), true));
  }

  @Get('users/:userid/guides')
  @IdParam('userid', 'The user id')
  @Endpoint({ summary: "A user's public guides", errors: [400, 404], notFound: 'User not found' })
  @ApiOkResponse(SUMMARIES)
  @OrderQuery()
  @PageQuery()
  async byUser(@Param('userid') raw: string, @Query() query: Query) {
    const userId = await this.existingUser(raw);
    return this.reader.summaries(await this.queries.byAuthor(userId, parsePage(query), order(query), false));
  }

  @Get('user/favorites/guides')
  @Endpoint({ summary: "The current user's favourite guides, private ones included", token: true, errors: [400], badRequest: PAGE_BAD_REQUEST })
  @ApiOkResponse(FAVORITES)
  @PageQuery()
  async myFavorites(@Query() query: Query, @CurrentPrincipal() principal: Caller) {
    return this.reader.marked(await this.queries.marked('favorite', principal.userId, parsePage(query), { isAdmin: principal.role === 'Admin' }));
  }

  @Put('user/favorites/guides/:guideid')
  @IdParam('guideid', 'The guide id')
  @HttpCode(204)
  @Endpoint({ summary: 'Favourite a guide (idempotent)', token: true, errors: [404, 422], notFound: 'Guide not found' })
  @ApiBody({ type: LangBodyDto, required: false }) @ApiNoContentResponse({ description: 'Favourited' })
  async favorite(@Param('guideid') raw: string, @Body() _body: LangBodyDto, @CurrentPrincipal() principal: Caller): Promise<void> {
    await this.mark.execute({ viewer: editorOf(principal)!, guideId: guideIdOf(raw), kind: 'favorite', on: true });
  }

  @Delete('user/favorites/guides/:guideid')
  @IdParam('guideid', 'The guide id')
  @HttpCode(204)
  @Endpoint({ summary: 'Remove a favourite (204 even if it was not one)', token: true, errors: [404], notFound: 'Guide not found' })
  @ApiNoContentResponse({ description: 'Not a favourite' })
  async unfavorite(@Param('guideid') raw: string, @CurrentPrincipal() principal: Caller): Promise<void> {
    await this.mark.execute({ viewer: editorOf(principal)!, guideId: guideIdOf(raw), kind: 'favorite', on: false });
  }

  @Get('users/:userid/favorites/guides')
  @IdParam('userid', 'The user id')
  @Endpoint({ summary: "A user's favourite public guides", errors: [400, 404], notFound: 'User not found', badRequest: PAGE_BAD_REQUEST })
  @ApiOkResponse(FAVORITES)
  @PageQuery()
  async favoritesOf(@Param('userid') raw: string, @Query() query: Query) {
    const userId = await this.existingUser(raw);
    return this.reader.marked(await this.queries.marked('favorite', userId, parsePage(query), null));
  }

  @Get('user/completions')
  @Endpoint({ summary: 'Guides the current user completed, private ones included', token: true, errors: [400], badRequest: PAGE_BAD_REQUEST })
  @ApiOkResponse(SUMMARIES)
  @PageQuery()
  async myCompletions(@Query() query: Query, @CurrentPrincipal() principal: Caller) {
    return this.reader.summaries((await this.queries.marked('completion', principal.userId, parsePage(query), { isAdmin: principal.role === 'Admin' })).map((r) => r.guide));
  }

  @Get('users/:userid/completions')
  @IdParam('userid', 'The user id')
  @Endpoint({ summary: 'Public guides a user completed', errors: [400, 404], notFound: 'User not found', badRequest: PAGE_BAD_REQUEST })
  @ApiOkResponse(SUMMARIES)
  @PageQuery()
  async completionsOf(@Param('userid') raw: string, @Query() query: Query) {
    const userId = await this.existingUser(raw);
    return this.reader.summaries((await this.queries.marked('completion', userId, parsePage(query), null)).map((r) => r.guide));
  }

  private existingUser(raw: string): Promise<number> {
    return this.users.existingUserId(raw);
  }
}
