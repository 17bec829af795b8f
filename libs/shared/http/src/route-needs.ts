import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext, type Type } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ApiExtraModels, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, getSchemaPath, type SchemaObject } from '@nestjs/swagger';
import { DEFAULT_LIMIT, MAX_LIMIT, UnknownLanguageError } from '@rc/shared-kernel';
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
  413: 'Request body too large',
  422: 'Semantic errors: missing or invalid fields, unknown fields',
  429: 'Too many attempts; see Retry-After',
  503: 'Busy, or the database is unavailable: try again after Retry-After',
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
  /** The 404's message on this route, naming its resource (`'Guide not found'`). */
  readonly notFound?: string;
  /** The body of this route's 409: the current version of the resource, as a GET returns it. */
  readonly conflict?: Type<unknown> | SchemaObject;
  /** The 400's message on this route (unless it is the app id's): what a bad parameter of this route gets. */
  readonly badRequest?: string;
  /** The 403 on this route: its message, and the privileges that would allow it (none when a rule of the resource refuses). */
  readonly forbidden?: string | { readonly message: string; readonly requiredPrivileges: readonly string[] };
  /** The 422 on this route: one violation (`field`, `message`); the body's message is `summary`, else the violation's. */
  readonly invalid?: { readonly field: string; readonly message: string; readonly summary?: string };
  /** The 413's message on this route (a raw upload's limit is not the JSON body's 1 MiB). */
  readonly tooLarge?: string;
}

/** The 403 of a route only an Admin may use (or only an Admin beyond the resource's own people): `forbidden: ADMIN_REQUIRED`. */
export const ADMIN_REQUIRED = { message: 'Insufficient privileges', requiredPrivileges: ['Admin'] } as const;

/** A true example of each error status (the 404 and 409 are the route's own). */
const ERROR_EXAMPLE: Record<number, object> = {
  400: { error: true, message: "Parameter 'order' must be ASC or DESC" },
  401: { error: true, message: 'Authentication required' },
  403: { error: true, message: 'Insufficient privileges', requiredPrivileges: ['Admin'] },
  404: { error: true, message: 'Not found' },
  405: { error: true, message: 'Method not allowed' },
  413: { error: true, message: 'Request body is larger than 1 MiB' },
  422: { error: true, message: "Unknown field 'titel'", errors: [{ field: 'titel', message: "Unknown field 'titel'" }] },
  429: { error: true, message: 'Rate limit exceeded. Please try again later.' },
  503: { error: true, message: 'The service is busy. Please try again shortly.' },
};

/** The example body of an error status on a route (its 400 names the app id when it needs one). */
export function errorExample(status: number, route: Pick<EndpointOptions, 'appId' | 'admin' | 'notFound' | 'badRequest' | 'forbidden' | 'invalid' | 'tooLarge'> = {}): object {
  if (status === 400 && route.appId) return { error: true, message: 'Invalid app id' };
  if (status === 400 && route.badRequest) return { error: true, message: route.badRequest };
  if (status === 403 && route.forbidden) {
    const { message, requiredPrivileges } = typeof route.forbidden === 'string' ? { message: route.forbidden, requiredPrivileges: [] } : route.forbidden;
    return { error: true, message, ...(requiredPrivileges.length ? { requiredPrivileges: [...requiredPrivileges] } : {}) };
  }
  // Only an Admin route's 403 names the privilege; elsewhere a rule of the resource refuses.
  if (status === 403 && !route.admin) return { error: true, message: 'Insufficient privileges' };
  if (status === 404 && route.notFound) return { error: true, message: route.notFound };
  if (status === 413 && route.tooLarge) return { error: true, message: route.tooLarge };
  if (status === 422 && route.invalid) {
    const { field, message, summary } = route.invalid;
    return { error: true, message: summary ?? message, errors: [{ field, message }] };
  }
  return ERROR_EXAMPLE[status] ?? { error: true, message: ERROR_TEXT[status] ?? 'Error' };
}

function errorResponse(status: number, needs: RouteNeeds, options: EndpointOptions): MethodDecorator {
  const description = ERROR_TEXT[status] ?? 'Error';
  if (status === 409 && options.conflict) {
    const conflict = options.conflict;
    return typeof conflict === 'function' ? ApiResponse({ status, description, type: conflict }) : ApiResponse({ status, description, schema: conflict });
  }
  const schema = { $ref: getSchemaPath(status === 422 ? ValidationErrorResponseDto : ErrorResponseDto) };
  const example = errorExample(status, { ...options, appId: needs.appId, admin: needs.admin });
  return ApiResponse({ status, description, content: { 'application/json': { schema, example } } });
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
    ApiExtraModels(ErrorResponseDto, ValidationErrorResponseDto),
    // A public route says so (`security: []`): no scheme is needed, whatever the document's default.
    ApiOperation({ summary: options.summary, description: options.description, ...(Object.keys(security).length ? {} : { security: [] }) }),
    ...(Object.keys(security).length ? [ApiSecurity(security)] : []),
    ...[...errors].sort().map((status) => errorResponse(status, needs, options)),
  );
}

/** A path parameter that is a numeric id (`guideid`, `userid`…): a positive integer. */
export function IdParam(name: string, description: string): MethodDecorator {
  return ApiParam({ name, schema: { type: 'integer', minimum: 1 }, description, example: 1 });
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

/** The 400 of a route taking `langid`: what a value that is not a language code gets. */
export const LANGID_BAD_REQUEST = new UnknownLanguageError('english').message;

/** The 400 of a paged list (`@PageQuery()`): what a `limit` or `offset` that is not a count gets. */
export const PAGE_BAD_REQUEST = "Parameter 'limit' must be a non-negative integer";

/** Documents `limit` and `offset`, as `parsePage` reads them (`maxLimit`: where a larger `limit` is clamped). */
export function PageQuery(maxLimit = MAX_LIMIT): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 0, default: DEFAULT_LIMIT }, description: `How many (a larger one counts as ${maxLimit})` }),
    ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 }, description: 'How many to skip' }),
  );
}

/** Documents `order`, as `order()` reads it: by id, ASC (default) or DESC. */
export function OrderQuery(): MethodDecorator {
  return ApiQuery({ name: 'order', required: false, enum: ['ASC', 'DESC'], description: 'By id: ASC (default) or DESC' });
}
