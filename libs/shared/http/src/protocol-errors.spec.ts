import { clientErrorAnswer, rawErrorResponse, SERVER_METHODS } from './protocol-errors.js';

const CONTRACT_STATUSES = [400, 401, 403, 404, 405, 409, 413, 422, 429, 500];

describe('rawErrorResponse', () => {
  it('is a complete HTTP/1.1 response with the JSON error body, its exact length, and Connection: close', () => {
    const text = rawErrorResponse(400, 'Request headers are too large');
    const [head, body] = text.split('\r\n\r\n');
    const [statusLine, ...headers] = head!.split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(headers).toEqual(
      expect.arrayContaining(['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body!)}`, 'Connection: close', expect.stringMatching(/^X-Request-Id: [0-9a-f-]{36}$/)]),
    );
    expect(JSON.parse(body!)).toEqual({ error: true, message: 'Request headers are too large' });
  });

  it('adds the headers it is given (Allow on a 405)', () => {
    const text = rawErrorResponse(405, 'Method CONNECT is not allowed', { Allow: SERVER_METHODS.join(', ') });
    expect(text.startsWith('HTTP/1.1 405 Method Not Allowed\r\n')).toBe(true);
    expect(text).toContain('\r\nAllow: DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT\r\n');
  });

  it('counts the length in bytes, not characters', () => {
    const text = rawErrorResponse(400, 'é');
    expect(text).toContain(`Content-Length: ${Buffer.byteLength('{"error":true,"message":"é"}')}\r\n`);
  });
});

describe('clientErrorAnswer', () => {
  it("answers every parser error with one of the contract's statuses", () => {
    for (const code of ['HPE_HEADER_OVERFLOW', 'HPE_CHUNK_EXTENSIONS_OVERFLOW', 'ERR_HTTP_REQUEST_TIMEOUT', 'HPE_INVALID_METHOD', 'HPE_INVALID_HEADER_TOKEN', undefined]) {
      const [status, message] = clientErrorAnswer(code);
      expect(CONTRACT_STATUSES).toContain(status);
      expect(message).toEqual(expect.any(String));
    }
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW')).toEqual([400, 'Request headers are too large']);
    expect(clientErrorAnswer('HPE_CHUNK_EXTENSIONS_OVERFLOW')[0]).toBe(413);
  });
});
