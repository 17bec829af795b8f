import { AuthenticationRequiredError, InvalidAccountDataError, InvalidLoginError, InvalidResetCodeError, TooManyAttemptsError } from '../identity.errors.js';
import { identityTestBed, rejectionOf, resetCodeIn, TEST_PASSWORD, type IdentityTestBed } from '../testing/index.js';

const EMAIL = 'jane@example.com';
const ADDRESS = '203.0.113.9';
const NEW_PASSWORD = 'a brand new passphrase';

async function withJane(options: Parameters<typeof identityTestBed>[0] = {}) {
  const bed = identityTestBed(options);
  const { user, token } = await bed.signUp({ email: EMAIL, uniqueUsername: 'jane' });
  return { bed, jane: user, token };
}

const request = (bed: IdentityTestBed, email: unknown = EMAIL, clientAddress = ADDRESS) => bed.requestPasswordReset.execute({ email, clientAddress });

async function requestCode(bed: IdentityTestBed): Promise<string> {
  await request(bed);
  return resetCodeIn(bed.mailer.sent.at(-1)!);
}

const logIn = (bed: IdentityTestBed, password: string) => bed.logIn.execute({ email: EMAIL, password, clientAddress: ADDRESS });

describe('RequestPasswordReset', () => {
  it('mails one code to a known address', async () => {
    const { bed } = await withJane();
    await request(bed, '  Jane@Example.com ');
    expect(bed.mailer.sent).toHaveLength(1);
    const [mail] = bed.mailer.sent;
    expect(mail.to).toBe(EMAIL);
    expect(mail.subject).toMatch(/reset/i);
    expect(mail.text).toContain(bed.secrets.last!);
    expect(mail.text).toContain('jane');
    expect(mail.text).toContain('60 minutes');
    expect(resetCodeIn(mail)).toBe(bed.secrets.last);
  });

  it('stores only the digest of the code, with its expiry', async () => {
    const { bed, jane } = await withJane();
    const code = await requestCode(bed);
    expect(bed.resets.find(code)).toBeNull();
    expect(bed.resets.find(`digest:${code}`)).toEqual({
      digest: `digest:${code}`,
      userId: jane.id,
      createdAt: bed.clock.now(),
      expiresAt: new Date(bed.clock.now().getTime() + 3600_000),
      usedAt: null,
    });
  });

  it('sends nothing, and says nothing, for an unknown address', async () => {
    const { bed } = await withJane();
    await expect(request(bed, 'nobody@example.com')).resolves.toBeUndefined();
    expect(bed.mailer.sent).toEqual([]);
    expect(bed.resets.size).toBe(0);
  });

  it('sends nothing for a disabled account', async () => {
    const { bed, jane } = await withJane();
    bed.users.setStatus(jane.id, 'disabled');
    await expect(request(bed)).resolves.toBeUndefined();
    expect(bed.mailer.sent).toEqual([]);
  });

  it.each(['not an email', '', 42, undefined])('refuses the malformed email %p', async (email) => {
    const { bed } = await withJane();
    const error = await rejectionOf(bed.requestPasswordReset.execute({ email, clientAddress: ADDRESS }));
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['email']);
    expect(bed.mailer.sent).toEqual([]);
  });

  it('is throttled per email after resetRequestsPerEmail requests', async () => {
    const { bed } = await withJane();
    const { resetRequestsPerEmail, windowSeconds } = bed.policy.throttle;
    expect(resetRequestsPerEmail).toBe(3);
    for (let i = 0; i < resetRequestsPerEmail; i++) await request(bed);
    const error = await rejectionOf(request(bed, 'JANE@example.com'));
    expect(error).toBeInstanceOf(TooManyAttemptsError);
    expect((error as TooManyAttemptsError).retryAfterSeconds).toBe(windowSeconds);
    expect(bed.mailer.sent).toHaveLength(3);

    bed.advanceSeconds(windowSeconds);
    await request(bed);
    expect(bed.mailer.sent).toHaveLength(4);
  });

  it('throttles an unknown address the same way', async () => {
    const { bed } = await withJane();
    for (let i = 0; i < 3; i++) await request(bed, 'nobody@example.com');
    await expect(request(bed, 'nobody@example.com')).rejects.toThrow(TooManyAttemptsError);
  });

  it('is throttled per client address across emails', async () => {
    const { bed } = await withJane({ policy: { throttle: { resetRequestsPerAddress: 2 } } });
    await request(bed, 'a@example.com');
    await request(bed, 'b@example.com');
    await expect(request(bed)).rejects.toThrow(TooManyAttemptsError);
    await request(bed, EMAIL, '198.51.100.1');
    expect(bed.mailer.sent).toHaveLength(1);
  });
});

describe('ConfirmPasswordReset', () => {
  it('sets the new password: the new one logs in, the old one no longer does', async () => {
    const { bed } = await withJane();
    const code = await requestCode(bed);
    await bed.confirmPasswordReset.execute({ code, password: NEW_PASSWORD });
    await expect(logIn(bed, NEW_PASSWORD)).resolves.toBeDefined();
    await expect(logIn(bed, TEST_PASSWORD)).rejects.toThrow(InvalidLoginError);
  });

  it('signs the account out everywhere, and no one else', async () => {
    const { bed, jane, token } = await withJane();
    const { token: second } = await logIn(bed, TEST_PASSWORD);
    const other = await bed.signUp();
    await bed.confirmPasswordReset.execute({ code: await requestCode(bed), password: NEW_PASSWORD });
    await expect(bed.authenticateToken.execute(token)).rejects.toThrow(AuthenticationRequiredError);
    await expect(bed.authenticateToken.execute(second)).rejects.toThrow(AuthenticationRequiredError);
    expect(bed.tokens.tokensOf(jane.id)).toEqual([]);
    await expect(bed.authenticateToken.execute(other.token)).resolves.toBeDefined();
  });

  it('accepts a code only once', async () => {
    const { bed } = await withJane();
    const code = await requestCode(bed);
    await bed.confirmPasswordReset.execute({ code, password: NEW_PASSWORD });
    const error = await rejectionOf(bed.confirmPasswordReset.execute({ code, password: 'yet another passphrase' }));
    expect(error).toBeInstanceOf(InvalidResetCodeError);
    expect((error as InvalidResetCodeError).violations.map((v) => v.field)).toEqual(['code']);
    await expect(logIn(bed, NEW_PASSWORD)).resolves.toBeDefined();
  });

  it('voids the other codes the account was sent', async () => {
    const { bed } = await withJane();
    const older = await requestCode(bed);
    const used = await requestCode(bed);
    await bed.confirmPasswordReset.execute({ code: used, password: NEW_PASSWORD });
    await expect(bed.confirmPasswordReset.execute({ code: older, password: 'yet another passphrase' })).rejects.toThrow(InvalidResetCodeError);
    await expect(logIn(bed, NEW_PASSWORD)).resolves.toBeDefined();
  });

  it('refuses an expired code', async () => {
    const { bed } = await withJane();
    const code = await requestCode(bed);
    bed.advanceSeconds(bed.policy.resetCodeTtlSeconds + 1);
    await expect(bed.confirmPasswordReset.execute({ code, password: NEW_PASSWORD })).rejects.toThrow(InvalidResetCodeError);
    await expect(logIn(bed, TEST_PASSWORD)).resolves.toBeDefined();
  });

  it('accepts a code just before it expires', async () => {
    const { bed } = await withJane();
    const code = await requestCode(bed);
    bed.advanceSeconds(bed.policy.resetCodeTtlSeconds - 1);
    await expect(bed.confirmPasswordReset.execute({ code, password: NEW_PASSWORD })).resolves.toBeUndefined();
  });

  it.each([
    ['unknown', 'fake-secret-999999-token'],
    ['empty', ''],
    ['too long', 'x'.repeat(257)],
    ['not a string', 12345],
    ['missing', undefined],
  ])('refuses an %s code', async (_case, code) => {
    const { bed } = await withJane();
    await requestCode(bed);
    await expect(bed.confirmPasswordReset.execute({ code, password: NEW_PASSWORD })).rejects.toThrow(InvalidResetCodeError);
    await expect(logIn(bed, TEST_PASSWORD)).resolves.toBeDefined();
  });

  it('refuses a weak new password without using up the code', async () => {
    const { bed } = await withJane();
    const code = await requestCode(bed);
    const error = await rejectionOf(bed.confirmPasswordReset.execute({ code, password: 'short' }));
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['password']);
    expect(bed.resets.find(`digest:${code}`)?.usedAt).toBeNull();

    await bed.confirmPasswordReset.execute({ code, password: NEW_PASSWORD });
    await expect(logIn(bed, NEW_PASSWORD)).resolves.toBeDefined();
  });

  it("a code changes only its own account's password", async () => {
    const { bed } = await withJane();
    const other = await bed.signUp();
    await bed.confirmPasswordReset.execute({ code: await requestCode(bed), password: NEW_PASSWORD });
    await expect(bed.logIn.execute({ email: other.user.email, password: TEST_PASSWORD, clientAddress: ADDRESS })).resolves.toBeDefined();
  });
});
