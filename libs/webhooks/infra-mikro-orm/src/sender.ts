import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
  /**
   * Connections kept open between attempts (one pool per target host and port). Absent: each
   * attempt opens its own connection and closes it.
   */
  readonly agents?: WebhookAgents;
}

/** An idle kept-alive connection is closed after this long (a target's own shorter `Keep-Alive: timeout` wins). */
const IDLE_SOCKET_MS = 4000;

/**
 * The kept-alive connections of one sender: deliveries to a target reuse its open connections
 * instead of resolving its name, connecting (and for https, shaking hands) for each attempt. The
 * private-address rule holds all the same: every new connection is made through the checked lookup,
 * and a reused one is to an address that passed it.
 */
export class WebhookAgents {
  readonly http = new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
  readonly https = new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });

  /** Closes every connection (at shutdown). */
  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/** Errors of a kept-alive connection the target closed just as it was reused: sent again at once, on a new one. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * POSTs one webhook: resolves with the answer's status, or the reason no answer came (refused
 * address, connection error, timeout). Never follows redirects; keeps nothing of the answer but
 * its status (the rest is read and dropped, so the connection can be reused).
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SenderOptions): Promise<SendResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { error: 'invalid URL' };
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) return { error: `${host} is a private or loopback address` };
  const signal = AbortSignal.timeout(options.timeoutMs);
  const first = await attempt(target, headers, body, options, signal);
  // A kept-alive connection the target had just closed: the message never reached it (or it answered
  // nothing), so it goes again once on a fresh connection; a receiver drops a repeat by its id anyway.
  const outcome = 'reused' in first ? await attempt(target, headers, body, options, signal) : first;
  return 'result' in outcome ? outcome.result : { error: 'the connection was closed before an answer came' };
}

function attempt(target: URL, headers: Record<string, string>, body: string, options: SenderOptions, signal: AbortSignal): Promise<{ result: SendResult } | { reused: true }> {
  return new Promise((resolve) => {
    const https = target.protocol === 'https:';
    const init: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'repair-content-webhooks/1' },
      signal,
      agent: options.agents ? (https ? options.agents.https : options.agents.http) : false,
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup(options.resolve) as RequestOptions['lookup'] }),
    };
    let settled = false;
    const settle = (outcome: { result: SendResult } | { reused: true }) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req: ClientRequest = (https ? httpsRequest : httpRequest)(target, init, (res) => {
      // The answer is drained (within the attempt's time) before it counts, so its connection is
      // back in the pool for the stream's next delivery.
      const answered = { result: { status: res.statusCode ?? 0 } };
      res.on('end', () => settle(answered));
      res.on('close', () => settle(answered));
      res.on('error', () => settle(answered));
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && !signal.aborted && STALE_SOCKET.has(error.code ?? '')) return settle({ reused: true });
      settle({ result: { error: error.name === 'AbortError' ? `no answer within ${options.timeoutMs} ms` : error.message } });
    });
    req.end(body);
  });
}
