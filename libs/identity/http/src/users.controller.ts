import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ConfirmPasswordReset, RegisterUser, RequestPasswordReset, type Principal } from '@rc/identity-domain';
import { ADMIN_REQUIRED, ClientAddress, CurrentPrincipal, Endpoint } from '@rc/shared-http';
import { ConfirmResetRequestDto, RegisterRequestDto, ResetPasswordRequestDto } from './dto/identity.request.dto.js';
import { AuthenticatedUserResponseDto, MessageResponseDto } from './dto/user.response.dto.js';
import { UserViews } from './user-views.js';

export const RESET_REQUESTED_MESSAGE = 'If the address has an account, a password reset code has been sent to it.';

@ApiTags('Authentication')
@Controller('users')
export class UsersController {
  constructor(
    private readonly registerUser: RegisterUser,
    private readonly requestReset: RequestPasswordReset,
    private readonly confirmReset: ConfirmPasswordReset,
    private readonly views: UserViews,
  ) {}

  @Post()
  @HttpCode(201)
  @Endpoint({
    summary: 'Register an account (and log it in)',
    description:
      'With public registration disabled, the caller must be an Admin (401 without a token, 403 for others). ' +
      'Requests from one client address are limited (429 past the limit); an Admin\'s are not.',
    appId: true,
    errors: [401, 403, 422, 429],
    forbidden: ADMIN_REQUIRED,
  })
  @ApiBody({ type: RegisterRequestDto })
  @ApiCreatedResponse({ type: AuthenticatedUserResponseDto })
  async register(
    @Body() body: RegisterRequestDto,
    @CurrentPrincipal() actor: Principal | null,
    @ClientAddress() clientAddress: string,
  ): Promise<AuthenticatedUserResponseDto> {
    const { user, token } = await this.registerUser.execute({
      registration: { email: body.email, username: body.username, uniqueUsername: body.unique_username, password: body.password },
      actor,
      clientAddress,
    });
    return { ...(await this.views.info(user, { self: true })), authToken: token };
  }

  @Post('reset_password')
  @HttpCode(200)
  @Endpoint({
    summary: 'Request a password reset code by mail',
    description: 'The answer is the same whether or not the address has an account. The code works once, within an hour.',
    errors: [422, 429],
  })
  @ApiBody({ type: ResetPasswordRequestDto })
  @ApiOkResponse({ type: MessageResponseDto })
  async resetPassword(@Body() body: ResetPasswordRequestDto, @ClientAddress() clientAddress: string): Promise<MessageResponseDto> {
    await this.requestReset.execute({ email: body.email, clientAddress });
    return { message: RESET_REQUESTED_MESSAGE };
  }

  @Post('reset_password/confirm')
  @HttpCode(200)
  @Endpoint({
    summary: 'Set a new password with a reset code',
    description: 'Every token of the account is revoked. A used, unknown or expired code is a 422.',
    errors: [422],
  })
  @ApiBody({ type: ConfirmResetRequestDto })
  @ApiOkResponse({ type: MessageResponseDto })
  async confirm(@Body() body: ConfirmResetRequestDto): Promise<MessageResponseDto> {
    await this.confirmReset.execute({ code: body.code, password: body.password });
    return { message: 'Password changed. Log in with the new password.' };
  }
}
