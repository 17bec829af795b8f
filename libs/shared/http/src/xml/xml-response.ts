import { applyDecorators, StreamableFile, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { mergeMap, type Observable } from 'rxjs';
import { ErrorResponseDto } from '../error-response.dto.js';
import { conditionalGet } from '../conditional.js';
import { NOT_MODIFIED, wantsPretty } from '../respond.js';
import { errorExample, type EndpointOptions } from '../route-needs.js';
import { XmlWriter } from './xml-writer.js';

export const XML_CONTENT_TYPE = 'application/xml';

/**
 * Whether the request asks for XML: `type=XML` (the original API's switch; `type=JSON` asks for
 * JSON) wins, otherwise an `Accept` header that prefers `application/xml` or `text/xml` to JSON.
 * `Accept: *\/*`, no `Accept` and anything else answer JSON, the default.
 */
export function wantsXml(req: Request): boolean {
  const type = (req.query as Record<string, unknown> | undefined)?.['type'];
  if (typeof type === 'string') {
    const format = type.trim().toUpperCase();
    if (format === 'XML') return true;
    if (format === 'JSON') return false;
  }
  if (!req.headers.accept) return false;
  const preferred = req.accepts(['application/json', XML_CONTENT_TYPE, 'text/xml']);
  return preferred === XML_CONTENT_TYPE || preferred === 'text/xml';
}

// Requests an XML-capable route chose to answer in XML: the exception filter answers their errors in XML too.
const xmlRequests = new WeakSet<object>();

export function answersInXml(req: object): boolean {
  return xmlRequests.has(req);
}

export function markXmlRequest(req: object): void {
  xmlRequests.add(req);
}

export interface XmlErrorBody {
  readonly message: string;
  readonly errors?: readonly { readonly field: string; readonly message: string; readonly index?: number }[];
  readonly requiredPrivileges?: readonly string[];
}

/**
 * The error body in XML, the same fields as the JSON one:
 * `<error><message>…</message><requiredPrivileges><privilege>…</privilege></requiredPrivileges>
 * <errors><field name="…" index="…">message</field></errors></error>`.
 */
export function xmlErrorDocument(body: XmlErrorBody, pretty: boolean): string {
  const w = new XmlWriter({ pretty, namespace: null });
  w.open('error');
  w.leaf('message', body.message);
  if (body.requiredPrivileges?.length) {
    w.open('requiredPrivileges');
    for (const privilege of body.requiredPrivileges) w.leaf('privilege', privilege);
    w.close();
  }
  if (body.errors) {
    w.open('errors');
    for (const error of body.errors) w.leaf('field', error.message, { name: error.field, index: error.index });
    w.close();
  }
  return w.end();
}

/** Writes an XML body with `Content-Type: application/xml` exactly. */
export function sendXml(res: Response, status: number, text: string): void {
  res.status(status);
  res.setHeader('Content-Type', XML_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(res.req?.method === 'HEAD' ? undefined : text);
}

export function sendXmlError(res: Response, status: number, body: XmlErrorBody): void {
  sendXml(res, status, xmlErrorDocument(body, wantsPretty(res.req)));
}

/** Turns a route's JSON body into its XML document. */
// The body is whatever the handler returned; the renderer names the shape it reads.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type XmlRenderer = (body: any, options: { pretty: boolean }) => string | Promise<string>;

/**
 * Answers in XML when the request asks for it (see `wantsXml`), rendering the handler's JSON
 * body; otherwise leaves the JSON response alone. Responses vary on `Accept` either way.
 */
export class XmlResponseInterceptor implements NestInterceptor {
  constructor(private readonly render: XmlRenderer) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    http.getResponse<Response>().vary('Accept');
    if (!wantsXml(req)) return next.handle();
    markXmlRequest(req);
    const res = http.getResponse<Response>();
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        const xml = Buffer.from(await this.render(body, { pretty: wantsPretty(req) }), 'utf8');
        // The same validators and caching headers as JSON answers (see conditionalGet).
        if (conditionalGet(req, res, res.statusCode, xml)) return NOT_MODIFIED;
        return new StreamableFile(xml, { type: XML_CONTENT_TYPE, length: xml.length });
      }),
    );
  }
}

export interface XmlAlternativeOptions {
  readonly render: XmlRenderer;
  /** The JSON success body: a DTO class or a schema. */
  readonly json: Type<unknown> | Record<string, unknown>;
  /** What the XML document is, e.g. "An oManual guide document (omanual_guide.xsd)". */
  readonly xml: string;
  readonly example: string;
  /** The route's error statuses, documented in both formats. */
  readonly errors: readonly number[];
  /** The 404's message on this route, naming its resource (`'Guide not found'`). */
  readonly notFound?: string;
  /** The 400's message on this route, as `@Endpoint`'s `badRequest`. */
  readonly badRequest?: string;
  /** The 403 on this route, as `@Endpoint`'s `forbidden`. */
  readonly forbidden?: EndpointOptions['forbidden'];
}

/**
 * Offers an XML rendering of a JSON route and documents it: the `type` parameter, and the success
 * and error responses in both media types. Put it above `@Endpoint` (it completes its error responses).
 */
export function XmlAlternative(options: XmlAlternativeOptions): MethodDecorator {
  const jsonSchema = typeof options.json === 'function' ? { $ref: getSchemaPath(options.json) } : options.json;
  return applyDecorators(
    UseInterceptors(new XmlResponseInterceptor(options.render)),
    ...(typeof options.json === 'function' ? [ApiExtraModels(options.json)] : []),
    ApiExtraModels(ErrorResponseDto),
    ApiQuery({
      name: 'type',
      required: false,
      enum: ['JSON', 'XML'],
      description: '`XML` answers an XML document (as does `Accept: application/xml`); errors are then XML too, with the same statuses.',
    }),
    ApiResponse({
      status: 200,
      type: undefined,
      description: `JSON by default; ${options.xml} with \`type=XML\` or \`Accept: application/xml\`. \`?pretty\` indents either.`,
      content: {
        'application/json': { schema: jsonSchema },
        [XML_CONTENT_TYPE]: { schema: { type: 'string', description: options.xml }, example: options.example },
      },
    }),
    ...options.errors.map((status) => {
      const example = errorExample(status, options) as XmlErrorBody;
      return ApiResponse({
        status,
        type: undefined,
        content: {
          'application/json': { schema: { $ref: getSchemaPath(ErrorResponseDto) }, example },
          [XML_CONTENT_TYPE]: { schema: { type: 'string', description: 'The error as XML: <error><message>…</message></error>' }, example: xmlErrorDocument(example, false) },
        },
      });
    }),
  );
}
