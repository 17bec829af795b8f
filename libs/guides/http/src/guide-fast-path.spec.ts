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
  type Made = { entry: object; json: string | null } | null;
  /** Bodies whose `current` answers `made` (the version looked up and the body made for it). */
  const bodies = (made: () => Promise<Made> = async () => ({ entry: {}, json: null }), answer: () => void = () => undefined) =>
    ({ cache: { enabled: true }, cached: () => null, current: made, answer, handOnNotPublic: () => undefined, viewed: () => undefined }) as unknown as PublicGuideBodies;
  const versions = (peek?: string | null) => ({ peek: () => peek }) as unknown as GuideVersions;
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('declines what it does not answer: other paths, query strings, tokens, XML, other methods', () => {
    const hot = guideFastPath(bodies(), versions('1.0'), () => undefined);
    const fallback = jest.fn();
    expect(hot(req('/api/2.0/guides/1?pretty'), res(), fallback)).toBe(false);
    expect(hot(req('/api/2.0/guides/1', { authorization: 'api x' }), res(), fallback)).toBe(false);
    expect(hot(req('/api/2.0/guides/1', { accept: 'application/xml' }), res(), fallback)).toBe(false);
    expect(hot(req('/api/2.0/guides/01'), res(), fallback)).toBe(false);
    expect(hot({ ...req('/api/2.0/guides/1'), method: 'PATCH' } as IncomingMessage, res(), fallback)).toBe(false);
    expect(hot(req('/api/2.0/guides/1'), res(), fallback)).toBe(true);
    expect(fallback).not.toHaveBeenCalled();
  });

  it('answers a hit at once, and a miss itself with the body made for the current version; a guide that is not public goes to Express', async () => {
    const entry = { etag: '"e"' };
    const asked: unknown[] = [];
    const answered: unknown[] = [];
    const viewed: number[] = [];
    const fake = {
      cache: { enabled: true },
      cached: (guideId: number, inline: boolean, version: string) => (guideId === 11 && inline && version === '3.0' ? entry : null),
      current: async (...args: unknown[]) => (asked.push(args), (args[0] === 13 ? null : { entry, json: '{}' })),
      answer: (e: unknown, _req: unknown, _res: unknown, json: unknown) => void answered.push([e, json]),
      handOnNotPublic: () => undefined,
      viewed: (guideId: number) => void viewed.push(guideId),
    } as unknown as PublicGuideBodies;
    const fallback = jest.fn();
    expect(guideFastPath(fake, versions('3.0'), () => undefined)(req('/api/2.0/guides/11'), res(), fallback)).toBe(true);
    expect(answered).toEqual([[entry, null]]); // synchronously: nothing asked
    expect(asked).toEqual([]);

    const hot = guideFastPath(fake, versions(undefined), () => undefined);
    expect(hot(req('/api/2.0/guides/12'), res(), fallback)).toBe(true);
    await flush();
    expect(asked).toEqual([[12, true]]);
    expect(answered).toEqual([[entry, null], [entry, '{}']]);
    expect(fallback).not.toHaveBeenCalled();

    expect(hot(req('/api/2.0/guides/13'), res(), fallback)).toBe(true);
    await flush();
    expect(fallback).toHaveBeenCalledTimes(1);
    // Remembered as not public: declined at once.
    expect(guideFastPath(fake, versions(null), () => undefined)(req('/api/2.0/guides/14'), res(), fallback)).toBe(false);
    expect(asked).toHaveLength(2);
    // Each body answered is a view of its guide (the ones handed on are counted by the route).
    expect(viewed).toEqual([11, 12]);
  });

  it('hands the request to Express once when the lookup fails', async () => {
    const hot = guideFastPath(bodies(() => Promise.reject(new Error('database down'))), versions(), () => undefined);
    const fallback = jest.fn();
    expect(hot(req('/api/2.0/guides/1'), res(), fallback)).toBe(true);
    await flush();
    expect(fallback).toHaveBeenCalledTimes(1);
  });

  it('never leaves a request hanging when answering fails: Express answers it, or the socket is closed once headers went out', async () => {
    const fallback = jest.fn();
    const before = res();
    const boom = () => {
      throw new Error('boom');
    };
    guideFastPath(bodies(undefined, boom), versions(), () => undefined)(req('/api/2.0/guides/1'), before, fallback);
    await flush();
    expect(fallback).toHaveBeenCalledTimes(1);
    const after = res();
    guideFastPath(
      bodies(undefined, () => {
        (after as { headersSent: boolean }).headersSent = true;
        throw new Error('boom');
      }),
      versions(),
      () => undefined,
    )(req('/api/2.0/guides/1'), after, fallback);
    await flush();
    expect(after.destroyCalls).toBe(1);
    expect(fallback).toHaveBeenCalledTimes(1);
  });
});
