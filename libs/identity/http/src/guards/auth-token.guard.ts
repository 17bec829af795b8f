import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateToken, AuthenticationRequiredError, type Principal } from '@rc/identity-domain';
import { AuthenticationError } from '@rc/shared-kernel';
import { needsOf, type ApiRequest } from '@rc/shared-http';

const API_SCHEME = /^api\s+(\S+)\s*$/i;

/**
 * Second guard: reads `Authorization: api <token>`. Where a route needs a token, a missing or
 * invalid one is a 401; elsewhere a valid token identifies the viewer and a bad one is ignored.
 */
@Injectable()
export class AuthTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateToken,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = needsOf(this.reflector, context).token;
    const req = context.switchToHttp().getRequest<ApiRequest<Principal>>();
    const header = req.header('authorization');
    const token = header ? API_SCHEME.exec(header)?.[1] : undefined;
    if (!token) {
      if (required) throw new AuthenticationRequiredError();
      return true;
    }
    try {
      req.principal = await this.authenticate.execute(token);
      req.authToken = token;
    } catch (error) {
      if (required || !(error instanceof AuthenticationError)) throw error;
    }
    return true;
  }
}
