import { AuthenticationRequiredError, InvalidLoginError, PasswordHashingBusyError, TooManyAttemptsError } from '../identity.errors.js';
import { BoundedPasswordHasher } from '../model/bounded-password-hasher.js';
import { PasswordHasher } from '../ports/secrets.js';
import { LogIn } from './log-in.use-case.js';
import { identityTestBed, rejectionOf, TEST_PASSWORD, type IdentityTestBed } from '../testing/index.js';

const EMAIL = 'jane@example.com';
const ADDRESS = '192.0.2.1';

async function withJane(options: Parameters<typeof identityTestBed>[0] = {}) {
  const bed = identityTestBed(options);
  const { user } = await bed.signUp({ email: EMAIL, uniqueUsername: 'jane' });
  return { bed, jane: user };
}

const logIn = (bed: IdentityTestBed, password = TEST_PASSWORD, email: unknown = EMAIL, clientAddress = ADDRESS) =>
  bed.logIn.execute({ email, password, clientAddress });

const fail = async (bed: IdentityTestBed, email: unknown = EMAIL, clientAddress = ADDRESS) =>
  expect(await rejectionOf(logIn(bed, 'wrong password!', email, clientAddress))).toBeInstanceOf(InvalidLoginError);

describe('LogIn', () => {
  it('answers a malformed email (even one with NUL) as a wrong login, throttled under one shared key', async () => {
    const { bed } = await withJane({ policy: { throttle: { loginFailuresPerEmail: 2, loginFailuresPerAddress: 100 } } });
    await fail(bed, 'a\u0000@example.com', '192.0.2.7');
    await fail(bed, 'not an email', '192.0.2.8');
    expect(await rejectionOf(logIn(bed, 'whatever', 'also@@bad', '192.0.2.9'))).toBeInstanceOf(TooManyAttemptsError);
    await expect(logIn(bed)).resolves.toBeDefined(); // real addresses keep their own counts
  });

  it('returns the user and a token that authenticates them', async () => {
    const { bed, jane } = await withJane();
    const { user, token } = await logIn(bed);
    expect(user.id).toBe(jane.id);
    await expect(bed.authenticateToken.execute(token)).resolves.toMatchObject({ userId: jane.id, role: 'User' });
  });

  it('normalises the email', async () => {
    const { bed, jane } = await withJane();
    await expect(logIn(bed, TEST_PASSWORD, '  JANE@Example.com ')).resolves.toMatchObject({ user: { id: jane.id } });
  });

  it('each login gets a new token; earlier ones stay valid', async () => {
    const { bed } = await withJane();
    const first = await logIn(bed);
    const second = await logIn(bed);
    expect(first.token).not.toBe(second.token);
    await expect(bed.authenticateToken.execute(first.token)).resolves.toBeDefined();
    await expect(bed.authenticateToken.execute(second.token)).resolves.toBeDefined();
  });

  it('gives the same error for a wrong password and an unknown email', async () => {
    const { bed } = await withJane();
    const wrongPassword = await rejectionOf(logIn(bed, 'not the password'));
    const unknownEmail = await rejectionOf(logIn(bed, TEST_PASSWORD, 'nobody@example.com'));
    expect(wrongPassword).toBeInstanceOf(InvalidLoginError);
    expect(unknownEmail).toBeInstanceOf(InvalidLoginError);
    expect((unknownEmail as Error).message).toBe((wrongPassword as Error).message);
    expect((unknownEmail as InvalidLoginError).code).toBe((wrongPassword as InvalidLoginError).code);
  });

  it('a login refused because every hashing slot is busy (known email or not) is a 503 that counts no attempt', async () => {
    const { bed } = await withJane();
    // One slot, no queue, held by a verification that never ends.
    class Stuck extends PasswordHasher {
      hash = (password: string) => bed.hasher.hash(password);
      verify = () => new Promise<boolean>(() => undefined);
    }
    const bounded = new BoundedPasswordHasher(new Stuck(), { concurrency: 1, maxWaiting: 0 });
    const logInBusy = new LogIn(bed.users, bounded, bed.issuer, bed.throttle, bed.policy);
    await bounded.hash('warm the decoy'); // a hash (not a verification) ends: the slot is free again
    void logInBusy.execute({ email: 'holder@example.com', password: 'x'.repeat(12), clientAddress: '192.0.2.99' });
    await new Promise((resolve) => setImmediate(resolve));
    for (const email of [EMAIL, 'nobody@example.com']) {
      const error = await rejectionOf(logInBusy.execute({ email, password: TEST_PASSWORD, clientAddress: ADDRESS }));
      expect(error).toBeInstanceOf(PasswordHashingBusyError);
      expect(bed.attempts.countOf('login-pair', `${ADDRESS} ${email}`)).toBe(0);
      expect(bed.attempts.countOf('login-email', email)).toBe(0);
    }
    expect(bed.attempts.countOf('login-address', ADDRESS)).toBe(0);
    expect(bed.attempts.countOf('login-address', '192.0.2.99')).toBe(1); // the stuck one is still in flight
  });

  it('still verifies a password hash when the email has no account', async () => {
    const { bed } = await withJane();
    const before = bed.hasher.verifyCalls;
    await expect(logIn(bed, TEST_PASSWORD, 'nobody@example.com')).rejects.toThrow(InvalidLoginError);
    expect(bed.hasher.verifyCalls).toBe(before + 1);
    expect(bed.hasher.verifiedHashes.at(-1)).toMatch(/^hashed:/);
  });

  it.each([
    ['a malformed email', 'not an email'],
    ['a non-string email', 42],
    ['a missing email', undefined],
  ])('still verifies a hash for %s', async (_case, email) => {
    const { bed } = await withJane();
    const before = bed.hasher.verifyCalls;
    await expect(bed.logIn.execute({ email, password: TEST_PASSWORD, clientAddress: ADDRESS })).rejects.toThrow(InvalidLoginError);
    expect(bed.hasher.verifyCalls).toBe(before + 1);
  });

  it('refuses a non-string password', async () => {
    const { bed } = await withJane();
    await expect(bed.logIn.execute({ email: EMAIL, password: undefined, clientAddress: ADDRESS })).rejects.toThrow(InvalidLoginError);
  });

  it('refuses a disabled account even with the right password, with the same error', async () => {
    const { bed, jane } = await withJane();
    bed.users.setStatus(jane.id, 'disabled');
    const error = await rejectionOf(logIn(bed));
    expect(error).toBeInstanceOf(InvalidLoginError);
    expect(bed.tokens.tokensOf(jane.id)).toHaveLength(1); // only the one from registration
  });

  it('gives an Admin an admin principal', async () => {
    const bed = identityTestBed();
    await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    const { token } = await logIn(bed, TEST_PASSWORD, 'root@example.com');
    await expect(bed.authenticateToken.execute(token)).resolves.toMatchObject({ role: 'Admin' });
  });

  describe('throttling per email and client address', () => {
    it('refuses even the right password from that address after too many failures, then lets it in after the window', async () => {
      const { bed } = await withJane();
      const { loginFailuresPerEmailAndAddress, windowSeconds } = bed.policy.throttle;
      expect(loginFailuresPerEmailAndAddress).toBe(5);
      for (let i = 0; i < loginFailuresPerEmailAndAddress; i++) {
        await fail(bed);
        bed.advanceSeconds(1);
      }
      // The first failure was 5 s ago.
      const error = await rejectionOf(logIn(bed));
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      const { retryAfterSeconds } = error as TooManyAttemptsError;
      expect(retryAfterSeconds).toBe(windowSeconds - 5);

      bed.advanceSeconds(retryAfterSeconds - 1);
      await expect(logIn(bed)).rejects.toMatchObject({ retryAfterSeconds: 1 });
      bed.advanceSeconds(1);
      await expect(logIn(bed)).resolves.toMatchObject({ user: { email: EMAIL } });
    });

    it('failures from one address never refuse the right password from another (no lock-out of the victim)', async () => {
      const { bed, jane } = await withJane();
      for (let i = 0; i < 5; i++) await fail(bed, EMAIL, '203.0.113.66');
      // The attacker's address is refused, however often it tries (refused attempts are not counted).
      for (let i = 0; i < 200; i++) await expect(logIn(bed, `guess ${i}`, EMAIL, '203.0.113.66')).rejects.toThrow(TooManyAttemptsError);
      expect(bed.attempts.countOf('login-email', EMAIL)).toBe(5);
      await expect(logIn(bed, TEST_PASSWORD, EMAIL, '198.51.100.1')).resolves.toMatchObject({ user: { id: jane.id } });
      // A wrong password from the victim's own address is a 401, not a 429.
      await fail(bed, EMAIL, '198.51.100.1');
    });

    it('a refused attempt is not counted as another failure', async () => {
      const { bed } = await withJane();
      for (let i = 0; i < 5; i++) await fail(bed);
      for (let i = 0; i < 3; i++) await expect(logIn(bed, 'wrong password!')).rejects.toThrow(TooManyAttemptsError);
      expect(bed.attempts.countOf('login-pair', `${ADDRESS} ${EMAIL}`)).toBe(5);
      expect(bed.attempts.countOf('login-email', EMAIL)).toBe(5);
    });

    it('counts the email however it is written', async () => {
      const { bed } = await withJane();
      for (const email of ['JANE@example.com', ' jane@example.com', 'Jane@Example.Com ', 'jane@EXAMPLE.com', EMAIL]) await fail(bed, email);
      await expect(logIn(bed)).rejects.toThrow(TooManyAttemptsError);
    });

    it('does not affect other emails from that address', async () => {
      const { bed } = await withJane();
      const other = await bed.signUp({ email: 'other@example.com', uniqueUsername: 'other' });
      for (let i = 0; i < 5; i++) await fail(bed);
      await expect(logIn(bed, TEST_PASSWORD, 'other@example.com')).resolves.toMatchObject({ user: { id: other.user.id } });
    });

    it('throttles unknown emails the same way, with the same answer', async () => {
      const { bed } = await withJane();
      for (let i = 0; i < 5; i++) await fail(bed, 'ghost@example.com');
      for (let i = 0; i < 5; i++) await fail(bed);
      const unknown = await rejectionOf(logIn(bed, TEST_PASSWORD, 'ghost@example.com'));
      const known = await rejectionOf(logIn(bed));
      expect(unknown).toBeInstanceOf(TooManyAttemptsError);
      expect(known).toBeInstanceOf(TooManyAttemptsError);
      expect({ ...(unknown as TooManyAttemptsError), message: (unknown as Error).message }).toEqual({ ...(known as TooManyAttemptsError), message: (known as Error).message });
    });

    it('applies to disabled accounts too', async () => {
      const { bed, jane } = await withJane();
      bed.users.setStatus(jane.id, 'disabled');
      for (let i = 0; i < 5; i++) await expect(logIn(bed)).rejects.toThrow(InvalidLoginError);
      await expect(logIn(bed)).rejects.toThrow(TooManyAttemptsError);
    });

    it("a successful login clears its email's failures from its address, not those from elsewhere", async () => {
      const { bed } = await withJane();
      for (let i = 0; i < 3; i++) await fail(bed, EMAIL, '203.0.113.66');
      for (let i = 0; i < 4; i++) await fail(bed);
      await logIn(bed);
      expect(bed.attempts.countOf('login-pair', `${ADDRESS} ${EMAIL}`)).toBe(0);
      expect(bed.attempts.countOf('login-pair', `203.0.113.66 ${EMAIL}`)).toBe(3);
      expect(bed.attempts.countOf('login-email', EMAIL)).toBe(7);
      for (let i = 0; i < 4; i++) await fail(bed);
      await expect(logIn(bed)).resolves.toBeDefined();
    });

    it('uses the configured limit', async () => {
      const { bed } = await withJane({ policy: { throttle: { loginFailuresPerEmailAndAddress: 2, windowSeconds: 60 } } });
      await fail(bed);
      await fail(bed);
      await expect(logIn(bed)).rejects.toMatchObject({ retryAfterSeconds: 60 });
      await expect(logIn(bed, TEST_PASSWORD, EMAIL, '198.51.100.1')).resolves.toBeDefined();
      bed.advanceSeconds(60);
      await expect(logIn(bed)).resolves.toBeDefined();
    });
  });

  describe('throttling per email across addresses', () => {
    const policy = { throttle: { loginFailuresPerEmail: 12 } };

    it('is reached only by failures spread over several addresses, then refuses the email from every address', async () => {
      const { bed } = await withJane({ policy });
      // 5 per address at most: the first two addresses are refused for jane, the third is not yet.
      for (const address of ['203.0.113.1', '203.0.113.2']) {
        for (let i = 0; i < 5; i++) await fail(bed, EMAIL, address);
        await expect(logIn(bed, TEST_PASSWORD, EMAIL, address)).rejects.toThrow(TooManyAttemptsError);
      }
      await fail(bed, EMAIL, '203.0.113.3');
      await fail(bed, EMAIL, '203.0.113.3');
      const error = await rejectionOf(logIn(bed, TEST_PASSWORD, EMAIL, '198.51.100.1'));
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      expect((error as TooManyAttemptsError).retryAfterSeconds).toBe(bed.policy.throttle.windowSeconds);
      bed.advanceSeconds(bed.policy.throttle.windowSeconds);
      await expect(logIn(bed, TEST_PASSWORD, EMAIL, '198.51.100.1')).resolves.toBeDefined();
    });

    it('by default needs failures from at least 20 addresses', () => {
      const { loginFailuresPerEmail, loginFailuresPerEmailAndAddress } = identityTestBed().policy.throttle;
      expect(loginFailuresPerEmail / loginFailuresPerEmailAndAddress).toBeGreaterThanOrEqual(20);
    });

    it('treats unknown emails the same way', async () => {
      const { bed } = await withJane({ policy });
      for (let a = 1; a <= 3; a++) for (let i = 0; i < 4; i++) await fail(bed, 'ghost@example.com', `203.0.113.${a}`);
      await expect(logIn(bed, 'whatever', 'ghost@example.com', '198.51.100.1')).rejects.toThrow(TooManyAttemptsError);
    });
  });

  describe('throttling per client address', () => {
    const policy = { throttle: { loginFailuresPerAddress: 3 } };

    it('counts failures across different emails', async () => {
      const { bed } = await withJane({ policy });
      await fail(bed, 'a@example.com');
      await fail(bed, 'b@example.com');
      await fail(bed, 'c@example.com');
      const error = await rejectionOf(logIn(bed));
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      expect((error as TooManyAttemptsError).retryAfterSeconds).toBe(bed.policy.throttle.windowSeconds);
    });

    it('does not affect other addresses', async () => {
      const { bed } = await withJane({ policy });
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await fail(bed, email);
      await expect(logIn(bed, TEST_PASSWORD, EMAIL, '198.51.100.7')).resolves.toBeDefined();
    });

    it("a successful login does not clear the address's failures", async () => {
      const { bed } = await withJane({ policy });
      await fail(bed, 'a@example.com');
      await fail(bed, 'b@example.com');
      await logIn(bed);
      await fail(bed, 'c@example.com');
      await expect(logIn(bed)).rejects.toThrow(TooManyAttemptsError);
    });
  });

  describe('token cap', () => {
    it('revokes the oldest token when the user holds more than maxTokensPerUser', async () => {
      const { bed, jane } = await withJane({ policy: { maxTokensPerUser: 3 } });
      const tokens: string[] = [];
      for (let i = 0; i < 4; i++) {
        bed.advanceSeconds(1);
        tokens.push((await logIn(bed)).token);
      }
      expect(bed.tokens.tokensOf(jane.id)).toHaveLength(3);
      await expect(bed.authenticateToken.execute(tokens[0])).rejects.toThrow(AuthenticationRequiredError);
      for (const token of tokens.slice(1)) await expect(bed.authenticateToken.execute(token)).resolves.toMatchObject({ userId: jane.id });
    });

    it('with the default cap of 10, the 11th login revokes the first', async () => {
      const { bed, jane } = await withJane();
      expect(bed.policy.maxTokensPerUser).toBe(10);
      // Registration issued one token already; all are created at the same instant here.
      const tokens: string[] = [];
      for (let i = 0; i < 11; i++) tokens.push((await logIn(bed)).token);
      expect(bed.tokens.tokensOf(jane.id)).toHaveLength(10);
      await expect(bed.authenticateToken.execute(tokens[0])).rejects.toThrow(AuthenticationRequiredError);
      await expect(bed.authenticateToken.execute(tokens[1])).resolves.toBeDefined();
      await expect(bed.authenticateToken.execute(tokens[10])).resolves.toBeDefined();
    });
  });
});
