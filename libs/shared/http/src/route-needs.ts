import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ApiOperation, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import { ErrorResponseDto, ValidationErrorResponseDto } from './error-response.dto.js';
import { throttleAddress } from './trust-proxy.js';

/** What a route requires of the caller; the three global guards read it. */
export interface RouteNeeds {
  readonly appId: boolean;
  readonly token: boolean;
  readonly admin: boolean;
}

const NEEDS = 'rc:route-needs';
const NO_NEEDS: RouteNeeds = { appId: false, token: false, admin: false };

export function needsOf(reflector: Reflector, context: ExecutionContext): RouteNeeds {
  return reflector.getAllAndOverride<RouteNeeds>(NEEDS, [context.getHandler(), context.getClass()]) ?? NO_NEEDS;
}

/**
 * A request after the guards: the caller, when a valid token came with it (the identity context's
 * guard puts its Principal there; other contexts read it as identity's published `Caller`).
 */
export interface ApiRequest<Caller = unknown> extends Request {
  principal?: Caller;
  authToken?: string;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid parameters, or a missing or unknown X-App-Id',
  401: 'No valid token (Authorization: api <token>)',
  403: 'Insufficient privileges',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Revision conflict: the body is the current version of the resource',
  413: 'Request body larger than 1 MiB',
  422: 'Semantic errors: missing or invalid fields, unknown fields',
  429: 'Too many attempts; see Retry-After',
};

export interface EndpointOptions {
  readonly summary: string;
  readonly description?: string;
  /** `X-App-Id` must name a registered application. */
  readonly appId?: boolean;
  /** A valid token is required (otherwise a valid token is still read, and a bad one ignored). */
  readonly token?: boolean;
  /** The caller must be an Admin (implies `token`). */
  readonly admin?: boolean;
  /** Error statuses the route can answer besides those its needs imply. */
  readonly errors?: readonly number[];
}

/** Declares a route's needs for the guards and documents them, with its error responses, in OpenAPI. */
export function Endpoint(options: EndpointOptions): MethodDecorator {
  const needs: RouteNeeds = { appId: !!options.appId, token: !!options.token || !!options.admin, admin: !!options.admin };
  const errors = new Set(options.errors ?? []);
  if (needs.appId) errors.add(400);
  if (needs.token) errors.add(401);
  if (needs.admin) errors.add(403);
  const security: Record<string, string[]> = {};
  if (needs.token) security['api'] = [];
  if (needs.appId) security['appId'] = [];
  return applyDecorators(
    SetMetadata(NEEDS, needs),
    ApiOperation({ summary: options.summary, description: options.description }),
    ...(Object.keys(security).length ? [ApiSecurity(security)] : []),
    ...[...errors]
      .sort()
      .map((status) => ApiResponse({ status, description: ERROR_TEXT[status] ?? 'Error', type: status === 422 ? ValidationErrorResponseDto : ErrorResponseDto })),
  );
}

/** The authenticated caller, or `null` on a public route called without a valid token. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => {
  return ctx.switchToHttp().getRequest<ApiRequest>().principal ?? null;
});

/** The client's address (behind proxies only as far as TRUST_PROXY allows), as throttles count it. */
export const ClientAddress = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return throttleAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown');
});
