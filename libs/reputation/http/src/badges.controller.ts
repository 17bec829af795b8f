import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { UserSummaries, type Caller } from '@rc/identity-contracts';
import { BADGE_CATEGORIES, GetUserBadges, InvalidBadgeCategoryError, ReputationQueries } from '@rc/reputation-domain';
import { CurrentPrincipal, Endpoint, IdParam } from '@rc/shared-http';
import { presentBadge, presentBadgeListItem, type BadgeBody, type BadgeListItemBody } from './badge.presenter.js';
import { BadgeListItemResponseDto, BadgeResponseDto } from './dto/badge.response.dto.js';

const CATEGORY = { name: 'category', required: false, enum: BADGE_CATEGORIES, description: 'Only badges of this category' };
const CATEGORY_INVALID = { field: 'category', message: new InvalidBadgeCategoryError().message };
const ORDER = 'Every enabled badge: earned ones first (most recently earned first), then the others by badge id.';

@ApiTags('Badges')
@Controller()
export class BadgesController {
  constructor(
    private readonly badges: GetUserBadges,
    private readonly queries: ReputationQueries,
    private readonly users: UserSummaries,
  ) {}

  @Get('badges')
  @Endpoint({ summary: 'The badge catalogue (an extension: the original API has no such endpoint)', description: 'Enabled badges by id, with how many users hold each and nothing of any viewer.' })
  @ApiOkResponse({ type: BadgeResponseDto, isArray: true })
  async catalogue(): Promise<BadgeBody[]> {
    return (await this.queries.catalogue()).map((b) => presentBadge(b.badge, b.numUsers));
  }

  @Get('users/:userid/badges')
  @IdParam('userid', 'The user id')
  @Endpoint({ summary: "A user's badges", description: ORDER, errors: [404, 422], notFound: 'User not found', invalid: CATEGORY_INVALID })
  @ApiQuery(CATEGORY)
  @ApiOkResponse({ type: BadgeListItemResponseDto, isArray: true })
  async ofUser(@Param('userid') raw: string, @Query('category') category: unknown): Promise<BadgeListItemBody[]> {
    const userId = await this.users.existingUserId(raw);
    return (await this.badges.execute({ userId, category })).map(presentBadgeListItem);
  }

  @Get('user/badges')
  @Endpoint({ summary: "The caller's badges", description: ORDER, token: true, errors: [422], invalid: CATEGORY_INVALID })
  @ApiQuery(CATEGORY)
  @ApiOkResponse({ type: BadgeListItemResponseDto, isArray: true })
  async mine(@CurrentPrincipal() principal: Caller, @Query('category') category: unknown): Promise<BadgeListItemBody[]> {
    return (await this.badges.execute({ userId: principal.userId, category })).map(presentBadgeListItem);
  }
}
