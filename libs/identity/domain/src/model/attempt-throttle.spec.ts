import { FixedClock } from '@rc/shared-kernel/testing';
import { TooManyAttemptsError } from '../identity.errors.js';
import { InMemoryAttemptLog } from '../testing/in-memory-attempt-log.js';
import { AttemptThrottle, type AttemptLimit } from './attempt-throttle.js';

describe('AttemptThrottle', () => {
  const setup = () => {
    const clock = new FixedClock();
    const log = new InMemoryAttemptLog();
    return { clock, log, throttle: new AttemptThrottle(log, clock, 60) };
  };
  const email: AttemptLimit = { kind: 'login-email', key: 'a@example.com', max: 2 };
  const address: AttemptLimit = { kind: 'login-address', key: '10.0.0.1', max: 3 };

  it('lets `max` attempts through and records each of them', async () => {
    const { throttle, log } = setup();
    await throttle.attempt([email]);
    await throttle.attempt([email]);
    expect(log.countOf('login-email', 'a@example.com')).toBe(2);
  });

  it('refuses the next one with the seconds until the oldest leaves the window, and does not count it', async () => {
    const { throttle, log, clock } = setup();
    await throttle.attempt([email]);
    clock.advance(20_000);
    await throttle.attempt([email]);
    clock.advance(10_000);
    const error = await throttle.attempt([email]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooManyAttemptsError);
    expect((error as TooManyAttemptsError).retryAfterSeconds).toBe(30);
    expect(log.countOf('login-email', 'a@example.com')).toBe(2);
  });

  it('lets attempts through again once the oldest has left the window', async () => {
    const { throttle, clock } = setup();
    await throttle.attempt([email]);
    await throttle.attempt([email]);
    clock.advance(59_999);
    await expect(throttle.attempt([email])).rejects.toMatchObject({ retryAfterSeconds: 1 });
    clock.advance(1);
    await expect(throttle.attempt([email])).resolves.toBeDefined();
  });

  it('of a burst of concurrent attempts, lets at most `max` through', async () => {
    const { throttle } = setup();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => throttle.attempt([email])));
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(2);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof TooManyAttemptsError)).toBe(true);
  });

  it('refuses when any of several limits is reached, withdrawing all of its records', async () => {
    const { throttle, log } = setup();
    for (let i = 0; i < 3; i++) await throttle.attempt([{ ...address }]);
    await expect(throttle.attempt([email, address])).rejects.toBeInstanceOf(TooManyAttemptsError);
    expect(log.countOf('login-email', 'a@example.com')).toBe(0);
    expect(log.countOf('login-address', '10.0.0.1')).toBe(3);
  });

  it('counts each kind and key apart', async () => {
    const { throttle } = setup();
    await throttle.attempt([email]);
    await throttle.attempt([email]);
    await expect(throttle.attempt([{ ...email, key: 'b@example.com' }])).resolves.toBeDefined();
    await expect(throttle.attempt([{ ...email, kind: 'reset-email' }])).resolves.toBeDefined();
  });

  it('forget removes only that attempt; clear forgets one kind and key', async () => {
    const { throttle, log } = setup();
    await throttle.attempt([email, address]);
    const second = await throttle.attempt([email, address]);
    await second.forget();
    expect(log.countOf('login-email', 'a@example.com')).toBe(1);
    expect(log.countOf('login-address', '10.0.0.1')).toBe(1);
    await throttle.clear(email);
    expect(log.countOf('login-email', 'a@example.com')).toBe(0);
    expect(log.countOf('login-address', '10.0.0.1')).toBe(1);
  });

  it('forget with kinds and keys to clear removes that attempt and every attempt of those, nothing else', async () => {
    const { throttle, log } = setup();
    const pair = { kind: 'login-pair' as const, key: '10.0.0.1 a@example.com', max: 5 };
    const limits = [pair, { ...email, max: 5 }, { ...address, max: 5 }];
    await throttle.attempt(limits);
    await throttle.attempt(limits);
    const third = await throttle.attempt(limits);
    await third.forget([pair]);
    expect(log.countOf('login-pair', '10.0.0.1 a@example.com')).toBe(0);
    expect(log.countOf('login-email', 'a@example.com')).toBe(2);
    expect(log.countOf('login-address', '10.0.0.1')).toBe(2);
  });
});
