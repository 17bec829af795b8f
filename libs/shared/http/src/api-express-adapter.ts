import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Response } from 'express';
import { sendJson } from './respond.js';

/** Nest's Express adapter, replying with the API's exact JSON content type and `?pretty`. */
export class ApiExpressAdapter extends ExpressAdapter {
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

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body === undefined || body === null || typeof body !== 'object' || typeof (body as { getStream?: unknown }).getStream === 'function') {
      return super.reply(response, body, statusCode);
    }
    sendJson(response, statusCode ?? response.statusCode, body);
    return undefined;
  }
}
