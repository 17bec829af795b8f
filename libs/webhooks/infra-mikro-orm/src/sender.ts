import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress, publicOnlyLookup, type Resolve } from './targets.js';

export type SendResult = { readonly status: number } | { readonly error: string };

export interface SenderOptions {
  /** Longest an attempt may take, connection to answer. */
  readonly timeoutMs: number;
  /** Private and loopback targets are allowed (tests, closed networks). */
  readonly allowPrivate: boolean;
  /** How names are resolved (the system's resolver unless a test gives its own). */
  readonly resolve?: Resolve;
}

/**
 * POSTs one webhook: resolves with the answer's status, or the reason no answer came (refused
 * address, connection error, timeout). Never follows redirects; reads no more of the answer than
 * its status.
 */
export function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SenderOptions): Promise<SendResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ error: 'invalid URL' });
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) return resolve({ error: `${host} is a private or loopback address` });
    const init: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'repair-content-webhooks/1' },
      signal: AbortSignal.timeout(options.timeoutMs),
      agent: false,
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup(options.resolve) as RequestOptions['lookup'] }),
    };
    let settled = false;
    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, init, (res) => {
      settle({ status: res.statusCode ?? 0 });
      res.resume();
      res.on('error', () => undefined);
    });
    req.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.name === 'AbortError' ? `no answer within ${options.timeoutMs} ms` : error.message }));
    req.end(body);
  });
}
