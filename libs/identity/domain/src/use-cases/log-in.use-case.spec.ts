import { AuthenticationRequiredError, InvalidLoginError, TooManyAttemptsError } from '../identity.errors.js';
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

  describe('throttling per email', () => {
    it('refuses even the right password after too many failures, then lets it in after the window', async () => {
      const { bed } = await withJane();
      const { loginFailuresPerEmail, windowSeconds } = bed.policy.throttle;
      expect(loginFailuresPerEmail).toBe(5);
      for (let i = 0; i < loginFailuresPerEmail; i++) {
        await fail(bed);
        bed.advanceSeconds(1);
      }
      // The first failure was 5 s ago.
      const error = await rejectionOf(logIn(bed));
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      const { retryAfterSeconds } = error as TooManyAttemptsError;
      expect(retryAfterSeconds).toBeGreaterThan(0);
      expect(retryAfterSeconds).toBeLessThanOrEqual(windowSeconds);
      expect(retryAfterSeconds).toBe(windowSeconds - 5);

      bed.advanceSeconds(retryAfterSeconds - 1);
      await expect(logIn(bed)).rejects.toMatchObject({ retryAfterSeconds: 1 });
      bed.advanceSeconds(1);
      await expect(logIn(bed)).resolves.toMatchObject({ user: { email: EMAIL } });
    });

    it('a refused attempt is not counted as another failure', async () => {
      const { bed } = await withJane();
      for (let i = 0; i < 5; i++) await fail(bed);
      for (let i = 0; i < 3; i++) await expect(logIn(bed, 'wrong password!')).rejects.toThrow(TooManyAttemptsError);
      expect(bed.attempts.countOf('login-email', EMAIL)).toBe(5);
    });

    it('counts the email however it is written', async () => {
      const { bed } = await withJane();
      for (const email of ['JANE@example.com', ' jane@example.com', 'Jane@Example.Com ', 'jane@EXAMPLE.com', EMAIL]) await fail(bed, email);
      await expect(logIn(bed)).rejects.toThrow(TooManyAttemptsError);
    });

    it('does not affect other emails', async () => {
      const { bed } = await withJane();
      const other = await bed.signUp({ email: 'other@example.com', uniqueUsername: 'other' });
      for (let i = 0; i < 5; i++) await fail(bed);
      await expect(logIn(bed, TEST_PASSWORD, 'other@example.com')).resolves.toMatchObject({ user: { id: other.user.id } });
    });

    it('throttles unknown emails the same way', async () => {
      const { bed } = await withJane();
      for (let i = 0; i < 5; i++) await fail(bed, 'ghost@example.com');
      await expect(logIn(bed, TEST_PASSWORD, 'ghost@example.com')).rejects.toThrow(TooManyAttemptsError);
    });

    it('applies to disabled accounts too', async () => {
      const { bed, jane } = await withJane();
      bed.users.setStatus(jane.id, 'disabled');
      for (let i = 0; i < 5; i++) await expect(logIn(bed)).rejects.toThrow(InvalidLoginError);
      await expect(logIn(bed)).rejects.toThrow(TooManyAttemptsError);
    });

    it("a successful login clears the email's failures", async () => {
      const { bed } = await withJane();
      for (let i = 0; i < 4; i++) await fail(bed);
      await logIn(bed);
      expect(bed.attempts.countOf('login-email', EMAIL)).toBe(0);
      for (let i = 0; i < 4; i++) await fail(bed);
      await expect(logIn(bed)).resolves.toBeDefined();
    });

    it('uses the configured limit', async () => {
      const { bed } = await withJane({ policy: { throttle: { loginFailuresPerEmail: 2, windowSeconds: 60 } } });
      await fail(bed);
      await fail(bed);
      await expect(logIn(bed)).rejects.toMatchObject({ retryAfterSeconds: 60 });
      bed.advanceSeconds(60);
      await expect(logIn(bed)).resolves.toBeDefined();
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
