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

  it('allows attempts below the limit', async () => {
    const { throttle } = setup();
    await throttle.record([email]);
    await expect(throttle.check([email])).resolves.toBeUndefined();
  });

  it('refuses at the limit until the oldest attempt leaves the window', async () => {
    const { clock, throttle } = setup();
    await throttle.record([email]);
    clock.advance(10_000);
    await throttle.record([email]);
    clock.advance(5_000);
    const error = await throttle.check([email]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooManyAttemptsError);
    expect((error as TooManyAttemptsError).retryAfterSeconds).toBe(45);
    clock.advance(44_000);
    await expect(throttle.check([email])).rejects.toMatchObject({ retryAfterSeconds: 1 });
    clock.advance(1_000);
    await expect(throttle.check([email])).resolves.toBeUndefined();
  });

  it('rounds a partial second up', async () => {
    const { clock, throttle } = setup();
    await throttle.record([email]);
    await throttle.record([email]);
    clock.advance(59_001);
    await expect(throttle.check([email])).rejects.toMatchObject({ retryAfterSeconds: 1 });
  });

  it('waits for the longest of several exceeded limits', async () => {
    const { clock, throttle } = setup();
    await throttle.record([address]);
    clock.advance(20_000);
    await throttle.record([email, address]);
    await throttle.record([email, address]);
    await expect(throttle.check([email, address])).rejects.toMatchObject({ retryAfterSeconds: 60 });
  });

  it('counts keys separately', async () => {
    const { throttle } = setup();
    await throttle.record([email, email].map((l) => ({ ...l })));
    await throttle.record([email]);
    await expect(throttle.check([{ ...email, key: 'b@example.com' }])).resolves.toBeUndefined();
    await expect(throttle.check([{ ...email, kind: 'reset-email' }])).resolves.toBeUndefined();
  });

  it('clear forgets one kind and key only', async () => {
    const { throttle, log } = setup();
    await throttle.record([email, address]);
    await throttle.record([email, address]);
    await throttle.clear(email);
    await expect(throttle.check([email])).resolves.toBeUndefined();
    expect(log.countOf('login-address', '10.0.0.1')).toBe(2);
  });
});
