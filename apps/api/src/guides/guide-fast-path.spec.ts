import { jest } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { guideFastPath } from './guide-fast-path.js';
import type { GuideVersions } from './guide-versions.js';
import type { PublicGuideBodies } from './public-guide-bodies.js';

describe('guideFastPath', () => {
  const req = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url, headers }) as unknown as IncomingMessage;
  const res = () => {
    const fake = { headersSent: false, destroyCalls: 0, destroy: () => void fake.destroyCalls++ };
    return fake as unknown as ServerResponse & { destroyCalls: number };
  };
  const bodies = (answer: () => void = () => undefined) =>
    ({ cache: { enabled: true, get: () => ({}) }, body: async () => ({ entry: {}, json: null }), answer, handOn: () => undefined }) as unknown as PublicGuideBodies;
  const versions = (version: () => Promise<string | null>, peek?: string | null) => ({ peek: () => peek, version }) as unknown as GuideVersions;
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('declines what it does not answer: other paths, query strings, tokens, XML, other methods', () => {
    const hot = guideFastPath(bodies(), versions(async () => '1.0', '1.0'), () => undefined);
    const fallback = jest.fn();
    expect(hot(req('/api/2.0/guides/1?pretty'), res(), fallback)).toBe(false);
    expect(hot(req('/api/2.0/guides/1', { authorization: 'api x' }), res(), fallback)).toBe(false);
    expect(hot(req('/api/2.0/guides/1', { accept: 'application/xml' }), res(), fallback)).toBe(false);
    expect(hot(req('/api/2.0/guides/01'), res(), fallback)).toBe(false);
    expect(hot({ ...req('/api/2.0/guides/1'), method: 'PATCH' } as IncomingMessage, res(), fallback)).toBe(false);
    expect(hot(req('/api/2.0/guides/1'), res(), fallback)).toBe(true);
    expect(fallback).not.toHaveBeenCalled();
  });

  it('answers a miss itself with the body made for the version it looked up; a guide that is not public goes to Express', async () => {
    const entry = { etag: '"e"' };
    const made: unknown[] = [];
    const answered: unknown[] = [];
    const fake = {
      cache: { enabled: true, get: () => null },
      body: async (...args: unknown[]) => (made.push(args), { entry, json: null }),
      answer: (e: unknown) => void answered.push(e),
      handOn: () => undefined,
    } as unknown as PublicGuideBodies;
    const fallback = jest.fn();
    const hot = guideFastPath(fake, versions(async () => '7.0'), () => undefined);
    expect(hot(req('/api/2.0/guides/12'), res(), fallback)).toBe(true);
    await flush();
    expect(made).toEqual([[12, true, '7.0']]);
    expect(answered).toEqual([entry]);
    expect(fallback).not.toHaveBeenCalled();

    expect(guideFastPath(fake, versions(async () => null), () => undefined)(req('/api/2.0/guides/13'), res(), fallback)).toBe(true);
    await flush();
    expect(fallback).toHaveBeenCalledTimes(1);
    expect(guideFastPath(fake, versions(async () => '1.0', null), () => undefined)(req('/api/2.0/guides/14'), res(), fallback)).toBe(false);
    expect(made).toHaveLength(1);
  });

  it('hands the request to Express once when the version lookup fails', async () => {
    const hot = guideFastPath(bodies(), versions(() => Promise.reject(new Error('database down'))), () => undefined);
    const fallback = jest.fn();
    expect(hot(req('/api/2.0/guides/1'), res(), fallback)).toBe(true);
    await flush();
    expect(fallback).toHaveBeenCalledTimes(1);
  });

  it('never leaves a request hanging when answering fails: Express answers it, or the socket is closed once headers went out', async () => {
    const fallback = jest.fn();
    const before = res();
    guideFastPath(bodies(() => { throw new Error('boom'); }), versions(async () => '1.0'), () => undefined)(req('/api/2.0/guides/1'), before, fallback);
    await flush();
    expect(fallback).toHaveBeenCalledTimes(1);
    const after = res();
    guideFastPath(
      bodies(() => {
        (after as { headersSent: boolean }).headersSent = true;
        throw new Error('boom');
      }),
      versions(async () => '1.0'),
      () => undefined,
    )(req('/api/2.0/guides/1'), after, fallback);
    await flush();
    expect(after.destroyCalls).toBe(1);
    expect(fallback).toHaveBeenCalledTimes(1);
  });
});
