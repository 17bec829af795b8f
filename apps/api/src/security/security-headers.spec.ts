import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadConfig } from '../config/config.js';
import { API_CSP, applySecurityHeaders, docsCsp, securityHeaderSets, securityOf } from './security-headers.js';
import { compileTrustProxy } from '@rc/shared-http';

const responseRecorder = () => {
  const headers: Record<string, string> = {};
  return { headers, res: { setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value) } as unknown as ServerResponse };
};

const request = (url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  ({ url, headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('security headers', () => {
  const sets = securityHeaderSets({ publicBaseUrl: 'https://repair.example', corsOrigins: ['*'] });
  const asObject = (list: readonly (readonly [string, string])[]) => Object.fromEntries(list.map(([name, value]) => [name.toLowerCase(), value]));

  it('are helmet’s, with a strict CSP for API answers, no referrer and no framing', () => {
    expect(asObject(sets.api)).toEqual({
      'content-security-policy': API_CSP,
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'cross-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
    expect(API_CSP).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('give Swagger UI a CSP that allows its own scripts and styles, and calls to the public origin', () => {
    const docs = asObject(sets.docs);
    expect(docs['content-security-policy']).toBe(docsCsp('https://repair.example'));
    expect(docs['content-security-policy']).toContain("script-src 'self';");
    expect(docs['content-security-policy']).toContain("connect-src 'self' https://repair.example;");
    expect(docs['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(docs['content-security-policy']).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    const { 'content-security-policy': _docsCsp, ...rest } = docs;
    const { 'content-security-policy': _apiCsp, ...apiRest } = asObject(sets.api);
    expect(rest).toEqual(apiRest);
  });

  it('keep Cross-Origin-Resource-Policy same-origin when CORS names its origins', () => {
    const restricted = securityHeaderSets({ publicBaseUrl: 'https://repair.example', corsOrigins: ['https://app.example'] });
    expect(asObject(restricted.api)['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('HSTS only for requests that arrived over TLS', () => {
    expect(sets.hsts).toBe('max-age=31536000; includeSubDomains');
    const apply = applySecurityHeaders(sets, compileTrustProxy(['loopback']));
    const plain = responseRecorder();
    apply(request('/api/2.0/guides/1'), plain.res);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const forwarded = responseRecorder();
    apply(request('/api/2.0/guides/1', { 'x-forwarded-proto': 'https' }), forwarded.res);
    expect(forwarded.headers['strict-transport-security']).toBe(sets.hsts);
    const forged = responseRecorder();
    apply(request('/api/2.0/guides/1', { 'x-forwarded-proto': 'https' }, '192.0.2.1'), forged.res);
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it.each([
    ['/api/2.0/docs', 'docs'],
    ['/api/2.0/docs/', 'docs'],
    ['/api/2.0/docs?x=1', 'docs'],
    ['/api/2.0/docs/swagger-ui-init.js', 'docs'],
    ['/API/2.0/Docs', 'docs'],
    ['/api/2.0/docs-json', 'api'],
    ['/api/2.0/docsx', 'api'],
    ['/api/2.0/guides/1', 'api'],
    ['/', 'api'],
  ])('%s gets the %s set', (url, set) => {
    const { headers, res } = responseRecorder();
    applySecurityHeaders(sets, compileTrustProxy(0))(request(url), res);
    expect(headers['content-security-policy']).toBe(set === 'docs' ? docsCsp('https://repair.example') : API_CSP);
  });

  it('are computed once per configuration and shared', () => {
    const config = loadConfig({});
    expect(securityOf(config)).toBe(securityOf(config));
    expect(securityOf(config)).not.toBe(securityOf(loadConfig({})));
  });
});
