import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { EditProfile, GetUser, ListUsers, MAX_USER_LIST_OFFSET, UserListOffsetTooLargeError, UserNotFoundError, type Principal, type UserId } from '@rc/identity-domain';
import { parseId, parsePage } from '@rc/shared-kernel';
import { CurrentPrincipal, Endpoint, order, timestamp, UserSummaryResponseDto, IdParam } from '@rc/shared-http';
import { ProfileEditRequestDto } from './dto/identity.request.dto.js';
import { UserResponseDto } from './dto/user.response.dto.js';
import { UserViews } from './user-views.js';

type Query = Record<string, unknown>;

/** A path id that is not a positive 32-bit integer names no account. */
function userIdOf(raw: string): UserId {
  const id = parseId(raw);
  if (id === null) throw new UserNotFoundError();
  return id as UserId;
}

/** Public profiles and the signed-in user's own profile edits. */
@ApiTags('Users')
@Controller()
export class ProfilesController {
  constructor(
    private readonly listUsers: ListUsers,
    private readonly getUser: GetUser,
    private readonly editProfile: EditProfile,
    private readonly views: UserViews,
  ) {}

  @Get('users')
  @Endpoint({
    summary: 'Active accounts, ordered by userid',
    description: `UserSummary items without \`privileges\`. Disabled accounts are never listed. \`joinedSince\` (UNIX seconds) keeps accounts that joined then or later. An \`offset\` above ${MAX_USER_LIST_OFFSET} is a 422, as in the original API.`,
    errors: [400, 422],
    invalid: { field: 'offset', message: new UserListOffsetTooLargeError(MAX_USER_LIST_OFFSET).message },
  })
  @ApiQuery({ name: 'joinedSince', required: false, type: 'integer', description: 'UNIX seconds' }) @ApiQuery({ name: 'order', required: false, enum: ['ASC', 'DESC'] })
  @ApiQuery({ name: 'limit', required: false, type: 'integer', description: 'Default 20, at most 200' }) @ApiQuery({ name: 'offset', required: false, type: 'integer', description: `Default 0, at most ${MAX_USER_LIST_OFFSET}` })
  @ApiOkResponse({ description: 'UserSummary items (reference §3.2)', type: UserSummaryResponseDto, isArray: true })
  async list(@Query() query: Query) {
    const page = parsePage(query);
    const users = await this.listUsers.execute({ filter: { order: order(query), joinedSince: timestamp(query, 'joinedSince') }, page });
    return this.views.summaries(users);
  }

  @Get('users/:userid')
  @IdParam('userid', 'The user id')
  @Endpoint({
    summary: 'One user (UserInfo)',
    description: 'The token is optional: `links` and `unread_notification_count` are shown only when the viewer is this user. Unknown and disabled accounts are a 404.',
    errors: [404], notFound: 'User not found',
  })
  @ApiOkResponse({ type: UserResponseDto })
  async one(@Param('userid') raw: string, @CurrentPrincipal() viewer: Principal | null): Promise<UserResponseDto> {
    const user = await this.getUser.execute(userIdOf(raw));
    return this.views.info(user, { self: viewer?.userId === user.id });
  }

  @Patch('user')
  @Endpoint({
    summary: 'Edit your own profile (extension of the original API)',
    description:
      'An extension: the original API has no profile edit. Any subset of `username`, `about` (wiki markup, shown as `about_raw` and `about_rendered`), `summary`, `location`, `langid` and `image` (the avatar: an image id of your library); `null` clears `about`, `summary`, `location` and `image`. Unknown fields, wrong types and over-long values are a 422 and change nothing. Each edit applies as a whole, and concurrent edits never undo one another\'s fields. Answers the UserInfo as you see it.',
    token: true,
    errors: [404, 422],
    notFound: 'User not found',
  })
  @ApiBody({ type: ProfileEditRequestDto })
  @ApiOkResponse({ type: UserResponseDto })
  async edit(@Body() body: ProfileEditRequestDto, @CurrentPrincipal() principal: Principal): Promise<UserResponseDto> {
    const { username, about, summary, location, langid, image } = body;
    const user = await this.editProfile.execute({ userId: principal.userId, edit: { username, about, summary, location, langid, image } });
    return this.views.info(user, { self: true });
  }
}
