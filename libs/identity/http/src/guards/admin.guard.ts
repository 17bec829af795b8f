import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AdminRequiredError, isAdmin, type Principal } from '@rc/identity-domain';
import { needsOf, type ApiRequest } from '@rc/shared-http';

/** Third guard: Admin-only routes refuse other signed-in users with a 403. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (!needsOf(this.reflector, context).admin) return true;
    if (!isAdmin(context.switchToHttp().getRequest<ApiRequest<Principal>>().principal)) throw new AdminRequiredError();
    return true;
  }
}
