import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { Impersonate, type Principal, type UserId } from '@rc/identity-domain';
import { CurrentPrincipal, Endpoint } from '@rc/shared-http';
import { ImpersonateRequestDto } from './dto/identity.request.dto.js';
import { AuthenticatedUserResponseDto } from './dto/user.response.dto.js';
import { UserViews } from './user-views.js';

/** Registered only when IMPERSONATION=true; otherwise the path does not exist (404). */
@ApiTags('Authentication')
@Controller('user/token/impersonate')
export class ImpersonationController {
  constructor(
    private readonly impersonate: Impersonate,
    private readonly views: UserViews,
  ) {}

  @Post()
  @HttpCode(201)
  @Endpoint({ summary: 'Admin: create a token acting as another user', admin: true, errors: [404, 422], notFound: 'User not found' })
  @ApiBody({ type: ImpersonateRequestDto })
  @ApiCreatedResponse({ type: AuthenticatedUserResponseDto })
  async create(@Body() body: ImpersonateRequestDto, @CurrentPrincipal() actor: Principal): Promise<AuthenticatedUserResponseDto> {
    const { user, token } = await this.impersonate.execute({ actor, userId: body.userid as UserId });
    return { ...(await this.views.info(user, { self: true })), authToken: token };
  }
}
