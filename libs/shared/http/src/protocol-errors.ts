import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

/** The methods the server answers, for the `Allow` of a refused CONNECT. */
export const SERVER_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const;

/**
 * A complete HTTP/1.1 response carrying the API's error body, for a socket that has no response
 * object (Node's parser refused the request, or a CONNECT). The connection closes after it.
 */
export function rawErrorResponse(status: number, message: string, headers: Readonly<Record<string, string>> = {}): string {
  const body = JSON.stringify({ error: true, message });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    'X-Content-Type-Options: nosniff',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The status and message for a request Node's HTTP parser refused (by the error's code), where
 * Node itself would answer 431, 413, 408 or a bare 400.
 */
export function clientErrorAnswer(code: string | undefined): readonly [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [400, 'Request headers are too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Request body chunk extensions are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [400, 'The request was not received in time'];
    default:
      return [400, 'Malformed HTTP request'];
  }
}

/**
 * Answers with the API's error body and one of its statuses what Node would otherwise answer on
 * its own, through the HTTP server's public events:
 * - `clientError` (a request Node cannot parse, headers over its limit, a request not received
 *   in time): 400 (413 for oversized chunk extensions), then the connection closes. Nothing is
 *   written where the connection is broken or an earlier response on it has begun to go out,
 *   as Node itself does.
 * - `checkExpectation` (an `Expect` other than `100-continue`): the request is handled as if it
 *   had none, as RFC 9110 allows, instead of Node's 417.
 * - `connect` (CONNECT, which Node would answer by closing the connection): 405 with `Allow`.
 */
export function installProtocolErrors(server: Server, logger: Logger): void {
  // The latest response of each connection, to know whether one is being written.
  const responses = new WeakMap<Duplex, ServerResponse>();
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => responses.set(req.socket, res));

  const answerAndClose = (socket: Duplex, response: string) => {
    // Node's own error listener is gone once the socket is handed over: a reset must not throw.
    socket.on('error', () => socket.destroy());
    socket.end(response, () => socket.destroy());
  };

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const response = responses.get(socket);
    if (error.code === 'ECONNRESET' || !socket.writable || (response && response.headersSent && !response.writableFinished)) {
      socket.destroy();
      return;
    }
    const [status, message] = clientErrorAnswer(error.code);
    logger.info({ status, code: error.code }, 'request refused by the HTTP parser');
    answerAndClose(socket, rawErrorResponse(status, message));
  });

  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));

  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    logger.info({ method: req.method, status: 405 }, 'CONNECT refused');
    answerAndClose(socket, rawErrorResponse(405, 'Method CONNECT is not allowed', { Allow: SERVER_METHODS.join(', ') }));
  });
}
