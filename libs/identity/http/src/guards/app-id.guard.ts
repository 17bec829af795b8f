import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { VerifyAppId } from '@rc/identity-domain';
import type { Request } from 'express';
import { needsOf } from '@rc/shared-http';

/** First guard: routes that need an application identity get a registered `X-App-Id` or a 400. */
@Injectable()
export class AppIdGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifyAppId: VerifyAppId,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!needsOf(this.reflector, context).appId) return true;
    await this.verifyAppId.execute(context.switchToHttp().getRequest<Request>().header('x-app-id'));
    return true;
  }
}
