import { Body, Controller, Delete, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { GetUser, LogIn, LogOut, type Principal } from '@rc/identity-domain';
import { ClientAddress, CurrentPrincipal, Endpoint, type ApiRequest } from '@rc/shared-http';
import { LoginRequestDto } from './dto/identity.request.dto.js';
import { AuthenticatedUserResponseDto, UserResponseDto } from './dto/user.response.dto.js';
import { UserViews } from './user-views.js';

@ApiTags('Authentication')
@Controller('user')
export class AuthController {
  constructor(
    private readonly logIn: LogIn,
    private readonly logOut: LogOut,
    private readonly getUser: GetUser,
    private readonly views: UserViews,
  ) {}

  @Post('token')
  @HttpCode(201)
  @Endpoint({
    summary: 'Log in: exchange email and password for a token',
    description: 'Wrong credentials answer 401 `Invalid login` whether or not the email has an account. Repeated failures answer 429. When more logins arrive than the password hashes running at once can serve, the excess answers 503 with `Retry-After` (the attempt is not counted).',
    appId: true,
    errors: [401, 422, 429, 503],
  })
  @ApiBody({ type: LoginRequestDto })
  @ApiCreatedResponse({ type: AuthenticatedUserResponseDto })
  async createToken(@Body() body: LoginRequestDto, @ClientAddress() clientAddress: string): Promise<AuthenticatedUserResponseDto> {
    const { user, token } = await this.logIn.execute({ email: body.email, password: body.password, clientAddress });
    return { ...(await this.views.info(user, { self: true })), authToken: token };
  }

  @Delete('token')
  @HttpCode(204)
  @Endpoint({ summary: 'Log out: the token used stops working at once', token: true })
  @ApiNoContentResponse({ description: 'Logged out' })
  async deleteToken(@CurrentPrincipal() principal: Principal): Promise<void> {
    await this.logOut.execute(principal);
  }

  @Get()
  @Endpoint({
    summary: 'The current user',
    description: 'Echoes the caller\'s own `authToken`, which older clients expect.',
    token: true,
  })
  @ApiOkResponse({ type: AuthenticatedUserResponseDto })
  async current(@CurrentPrincipal() principal: Principal, @Req() req: ApiRequest): Promise<UserResponseDto> {
    const user = await this.getUser.execute(principal.userId);
    return { ...(await this.views.info(user, { self: true })), authToken: req.authToken! } as AuthenticatedUserResponseDto;
  }
}
