import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Response } from 'express';
import { sendJson } from './respond.js';
import { RouteTable } from './route-table.js';

/**
 * Nest's Express adapter, replying with the API's exact JSON content type and `?pretty`, and
 * recording the routes registered through it (by Nest's router and by Swagger UI) in `routes`.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  /** Every route registered through the adapter's public route methods (`all` excepted: no endpoint of its own). */
  readonly routes = new RouteTable();

  constructor() {
    // Router settings are read when the router is created, before any route exists.
    const app = express();
    app.set('case sensitive routing', true);
    super(app);
  }

  /**
   * Errors raised by Express middleware reach the exception filter as they are: the filter
   * knows the body parser's error types and answers without echoing the parser's message.
   */
  override mapException(error: unknown): unknown {
    return error;
  }

  override get(...args: unknown[]): unknown {
    return this.route('GET', args, () => super.get(...(args as [never, never])));
  }

  override post(...args: unknown[]): unknown {
    return this.route('POST', args, () => super.post(...(args as [never, never])));
  }

  override put(...args: unknown[]): unknown {
    return this.route('PUT', args, () => super.put(...(args as [never, never])));
  }

  override patch(...args: unknown[]): unknown {
    return this.route('PATCH', args, () => super.patch(...(args as [never, never])));
  }

  override delete(...args: unknown[]): unknown {
    return this.route('DELETE', args, () => super.delete(...(args as [never, never])));
  }

  override head(...args: unknown[]): unknown {
    return this.route('HEAD', args, () => super.head(...(args as [never, never])));
  }

  override options(...args: unknown[]): unknown {
    return this.route('OPTIONS', args, () => super.options(...(args as [never, never])));
  }

  private route(method: string, args: unknown[], register: () => unknown): unknown {
    if (typeof args[0] === 'string') this.routes.add(method, args[0]);
    return register();
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body === undefined || body === null || typeof body !== 'object' || typeof (body as { getStream?: unknown }).getStream === 'function') {
      return super.reply(response, body, statusCode);
    }
    sendJson(response, statusCode ?? response.statusCode, body);
    return undefined;
  }
}
