import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ValidationFailedError } from '@rc/shared-kernel';
import { conditionalGet, documentConditionalRequests, expectedRevision, matchesEtag, newestRevisionNamed, representsRevision } from './conditional.js';

function exchange(method: string, headers: Record<string, string> = {}): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.headers = headers;
  return { req, res: new ServerResponse(req) };
}

const request = (headers: Record<string, string>) => exchange('PATCH', headers).req;

describe('conditionalGet', () => {
  it('sets a strong ETag of the bytes, Vary and public caching for an anonymous GET, and a 304 only to a matching If-None-Match', () => {
    const { req, res } = exchange('GET');
    expect(conditionalGet(req, res, 200, '{"a":1}')).toBe(false);
    const etag = res.getHeader('ETag') as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.getHeader('Cache-Control')).toBe('public, no-cache');
    expect(res.getHeader('Vary')).toBe('Authorization');
    expect(res.getHeader('Last-Modified')).toBeUndefined();

    const again = exchange('HEAD', { 'if-none-match': `"x", W/${etag}` });
    expect(conditionalGet(again.req, again.res, 200, '{"a":1}')).toBe(true);
    const other = exchange('GET', { 'if-none-match': etag });
    expect(conditionalGet(other.req, other.res, 200, '{"a":2}')).toBe(false);
  });

  it('names the revision of a versioned resource and dates it; If-Modified-Since counts only without If-None-Match', () => {
    const { req, res } = exchange('GET', { authorization: 'api t', 'if-modified-since': new Date(1_700_000_000_000).toUTCString() });
    representsRevision(res, 42, 1_700_000_000);
    expect(conditionalGet(req, res, 200, 'x')).toBe(true);
    expect(res.getHeader('ETag')).toMatch(/^"r42-[A-Za-z0-9_-]{27}"$/);
    expect(res.getHeader('Last-Modified')).toBe(new Date(1_700_000_000_000).toUTCString());
    expect(res.getHeader('Cache-Control')).toBe('private, no-cache');

    const newer = exchange('GET', { 'if-modified-since': new Date(1_699_999_999_000).toUTCString() });
    representsRevision(newer.res, 42, 1_700_000_000);
    expect(conditionalGet(newer.req, newer.res, 200, 'x')).toBe(false);
    const both = exchange('GET', { 'if-none-match': '"r41-old"', 'if-modified-since': new Date(1_800_000_000_000).toUTCString() });
    representsRevision(both.res, 42, 1_700_000_000);
    expect(conditionalGet(both.req, both.res, 200, 'x')).toBe(false);
  });

  it('leaves other methods, other statuses, answers with an ETag already and a Cache-Control already set alone', () => {
    const post = exchange('POST', { 'if-none-match': '*' });
    expect(conditionalGet(post.req, post.res, 200, 'x')).toBe(false);
    expect(post.res.getHeader('ETag')).toBeUndefined();
    const missing = exchange('GET', { 'if-none-match': '*' });
    expect(conditionalGet(missing.req, missing.res, 404, 'x')).toBe(false);
    const cached = exchange('GET');
    cached.res.setHeader('ETag', '"mine"');
    expect(conditionalGet(cached.req, cached.res, 200, 'x')).toBe(false);
    expect(cached.res.getHeader('ETag')).toBe('"mine"');
    const noStore = exchange('GET');
    noStore.res.setHeader('Cache-Control', 'no-store');
    conditionalGet(noStore.req, noStore.res, 200, 'x');
    expect(noStore.res.getHeader('Cache-Control')).toBe('no-store');
  });
});

describe('matchesEtag and newestRevisionNamed', () => {
  it('compares weakly and reads the revisions an If-None-Match names', () => {
    expect(matchesEtag('W/"a"', '"a"')).toBe(true);
    expect(matchesEtag('"a"', 'W/"a"')).toBe(true);
    expect(matchesEtag('*', '"a"')).toBe(true);
    expect(matchesEtag('"b"', '"a"')).toBe(false);
    expect(newestRevisionNamed('"r7-abc", W/"r12-def-gzip", "zzz"')).toBe(12);
    expect(newestRevisionNamed('"abc"')).toBe(0);
    expect(newestRevisionNamed(undefined)).toBe(0);
  });
});

describe('expectedRevision', () => {
  const fails = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    throw new Error('did not throw');
  };

  it('takes revisionid without If-Match, and requires one of them', () => {
    expect(expectedRevision(request({}), { revisionid: '5' })).toBe(5);
    expect(fails(() => expectedRevision(request({}), {}))).toBeInstanceOf(ValidationFailedError);
    expect(fails(() => expectedRevision(request({ 'if-match': '*' }), {}))).toBeInstanceOf(ValidationFailedError);
    expect(expectedRevision(request({ 'if-match': '*' }), { revisionid: '5' })).toBe(5);
  });

  it('reads the revision an If-Match ETag names (any representation); a tag naming none cannot match', () => {
    expect(expectedRevision(request({ 'if-match': '"r9-abc"' }), {})).toBe(9);
    expect(expectedRevision(request({ 'if-match': '"r9-abc-gzip"' }), {})).toBe(9);
    expect(expectedRevision(request({ 'if-match': '"other", "r9-abc"' }), {})).toBe(9);
    // Weak tags never match If-Match; revision 0 is none, answered as a stale revision.
    expect(expectedRevision(request({ 'if-match': 'W/"r9-abc"' }), {})).toBe(0);
    expect(expectedRevision(request({ 'if-match': '"abc"' }), {})).toBe(0);
    expect(fails(() => expectedRevision(request({ 'if-match': '"r9-a", "r10-b"' }), {}))).toBeInstanceOf(ValidationFailedError);
  });

  it('wants If-Match and revisionid to name the same revision when both are given', () => {
    expect(expectedRevision(request({ 'if-match': '"r9-abc"' }), { revisionid: '9' })).toBe(9);
    const error = fails(() => expectedRevision(request({ 'if-match': '"r9-abc"' }), { revisionid: '8' })) as ValidationFailedError;
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(error.violations).toEqual([{ field: 'If-Match', message: 'If-Match must name the revision revisionid names' }]);
    expect(fails(() => expectedRevision(request({ 'if-match': '"stale-or-foreign"' }), { revisionid: '8' }))).toBeInstanceOf(ValidationFailedError);
  });
});

describe('documentConditionalRequests', () => {
  it('adds the conditional headers to every GET with a 200, and its 304', () => {
    const document = {
      paths: {
        '/a': { get: { responses: { '200': { description: 'ok' } } }, post: { responses: { '201': { description: 'made' } } } },
        '/b': { get: { parameters: [{ name: 'q', in: 'query' }], responses: { '302': { description: 'elsewhere' } } } },
        '/file.zip': { get: { responses: { '200': { description: 'a file', content: { 'application/zip': {} } } } } },
      },
    };
    documentConditionalRequests(document);
    const get = document.paths['/a'].get as unknown as { parameters: { $ref: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> };
    expect(get.parameters.map((p) => p.$ref)).toEqual(['#/components/parameters/IfNoneMatch', '#/components/parameters/IfModifiedSince']);
    expect(Object.keys(get.responses['200']!.headers!)).toEqual(['ETag', 'Last-Modified', 'Cache-Control', 'Vary']);
    expect(get.responses['304']).toBeDefined();
    expect(document.paths['/a'].post).toEqual({ responses: { '201': { description: 'made' } } });
    expect(document.paths['/b'].get.parameters).toHaveLength(1);
    // Files keep what their routes say of their own validators.
    expect(document.paths['/file.zip'].get).toEqual({ responses: { '200': { description: 'a file', content: { 'application/zip': {} } } } });
  });
});
