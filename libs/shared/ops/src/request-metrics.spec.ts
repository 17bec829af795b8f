import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodLabel, NO_ROUTE, requestTimer, routeLabel, setRouteLabel, statusLabel } from './request-metrics.js';

const req = (url: string, route?: { path: string; methods: Record<string, boolean> }) => ({ url, method: 'GET', route }) as unknown as IncomingMessage;

describe('request metric labels', () => {
  it('names the route template Express matched, without the API prefix', () => {
    expect(routeLabel(req('/api/2.0/guides/17?x=1', { path: '/api/2.0/guides/:guideid', methods: { get: true } }))).toBe('/guides/:guideid');
    expect(routeLabel(req('/api/2.0', { path: '/api/2.0', methods: { get: true } }))).toBe('/');
  });

  it("ignores Nest's not-found handler and middleware routes, which answer every method", () => {
    expect(routeLabel(req('/api/2.0/nope', { path: '*path', methods: { _all: true } }))).toBe(NO_ROUTE);
    expect(routeLabel(req('/api/2.0/x', { path: '/api/2.0/x', methods: { get: true, post: true, acl: true } }))).toBe(NO_ROUTE);
  });

  it('names the hot path route, a label set by who answered, or none; never the raw URL', () => {
    expect(routeLabel(req('/api/2.0/guides/123'))).toBe('/guides/:guideid');
    expect(routeLabel(req('/api/2.0/guides/123?pretty'))).toBe('/guides/:guideid');
    const ops = req('/api/2.0/metrics?x');
    setRouteLabel(ops, '/metrics');
    expect(routeLabel(ops)).toBe('/metrics');
    expect(routeLabel(req('/api/2.0/users/5/whatever'))).toBe(NO_ROUTE);
    expect(routeLabel(req('/favicon.ico'))).toBe(NO_ROUTE);
  });

  it('keeps methods and statuses to a small set', () => {
    expect(['GET', 'PATCH', 'PROPFIND', undefined].map(methodLabel)).toEqual(['GET', 'PATCH', 'other', 'other']);
    const res = (statusCode: number, writableFinished = true) => ({ statusCode, writableFinished }) as ServerResponse;
    expect([res(200), res(404), res(200, false), res(999)].map(statusLabel)).toEqual(['200', '404', 'aborted', 'other']);
  });
});

describe('requestTimer', () => {
  it('observes each request once, when its response closes', () => {
    const seen: [string, string, string, number][] = [];
    const time = requestTimer((...args) => seen.push(args));
    const request = req('/api/2.0/guides/9');
    const response = Object.assign(new EventEmitter(), { req: request, statusCode: 304, writableFinished: true }) as unknown as ServerResponse;
    time(request, response);
    response.emit('close');
    response.emit('close');
    expect(seen).toEqual([['GET', '/guides/:guideid', '304', expect.any(Number)]]);
    expect(seen[0]![3]).toBeGreaterThanOrEqual(0);
  });
});
