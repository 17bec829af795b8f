import { AdminRequiredError, AuthenticationRequiredError, InvalidAccountDataError, TooManyAttemptsError } from '../identity.errors.js';
import { identityTestBed, rejectionOf, TEST_PASSWORD } from '../testing/index.js';

const registration = { email: 'Jane@Example.com', username: 'Jane', uniqueUsername: 'JaneDoe', password: TEST_PASSWORD };

describe('RegisterUser', () => {
  it('stores the account and returns a token that authenticates it', async () => {
    const bed = identityTestBed();
    const { user, token } = await bed.registerUser.execute({ registration, actor: null });

    expect(user).toMatchObject({ email: 'jane@example.com', username: 'Jane', uniqueUsername: 'JaneDoe', role: 'User', status: 'active' });
    expect(user.joinedAt).toEqual(bed.clock.now());
    const stored = await bed.users.findById(user.id);
    expect(stored).toMatchObject({ email: 'jane@example.com', passwordHash: `hashed:${TEST_PASSWORD}` });

    const principal = await bed.authenticateToken.execute(token);
    expect(principal).toEqual({ userId: user.id, role: 'User', tokenDigest: `digest:${token}` });
  });

  it('never stores the password itself', async () => {
    const bed = identityTestBed();
    const { user } = await bed.registerUser.execute({ registration, actor: null });
    expect(JSON.stringify(await bed.users.findById(user.id))).not.toContain(`"${TEST_PASSWORD}"`);
  });

  it('gives each account its own id', async () => {
    const bed = identityTestBed();
    const a = await bed.signUp();
    const b = await bed.signUp();
    expect(a.user.id).not.toBe(b.user.id);
    expect(bed.users.all()).toHaveLength(2);
  });

  it('lets the new account log in with its password', async () => {
    const bed = identityTestBed();
    await bed.registerUser.execute({ registration, actor: null });
    await expect(bed.logIn.execute({ email: 'jane@example.com', password: TEST_PASSWORD, clientAddress: '1.2.3.4' })).resolves.toMatchObject({
      user: { uniqueUsername: 'JaneDoe' },
    });
  });

  it('refuses invalid input with every violation, and stores nothing', async () => {
    const bed = identityTestBed();
    const error = await rejectionOf(
      bed.registerUser.execute({ registration: { email: 'x', username: '', uniqueUsername: 'a', password: 'short' }, actor: null }),
    );
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['email', 'password', 'unique_username']);
    expect(bed.users.all()).toEqual([]);
  });

  it('refuses an email that already has an account (whatever its case)', async () => {
    const bed = identityTestBed();
    await bed.registerUser.execute({ registration, actor: null });
    const error = await rejectionOf(
      bed.registerUser.execute({ registration: { ...registration, email: '  JANE@example.COM ', uniqueUsername: 'other' }, actor: null }),
    );
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['email']);
    expect(bed.users.all()).toHaveLength(1);
  });

  it('refuses a unique_username that is taken, compared case-insensitively', async () => {
    const bed = identityTestBed();
    await bed.registerUser.execute({ registration, actor: null });
    const error = await rejectionOf(
      bed.registerUser.execute({ registration: { ...registration, email: 'other@example.com', uniqueUsername: 'janedoe' }, actor: null }),
    );
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['unique_username']);
  });

  it('lists both fields when both are taken', async () => {
    const bed = identityTestBed();
    await bed.registerUser.execute({ registration, actor: null });
    const error = await rejectionOf(bed.registerUser.execute({ registration: { ...registration, uniqueUsername: 'JANEDOE' }, actor: null }));
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['email', 'unique_username']);
  });

  it('checks the format before uniqueness', async () => {
    const bed = identityTestBed();
    await bed.registerUser.execute({ registration, actor: null });
    const error = await rejectionOf(bed.registerUser.execute({ registration: { ...registration, password: 'short' }, actor: null }));
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['password']);
  });

  it('open registration accepts a signed-in non-admin actor too', async () => {
    const bed = identityTestBed();
    const { principal } = await bed.signUp();
    await expect(bed.signUp({}, principal)).resolves.toMatchObject({ user: { role: 'User' } });
  });

  describe('with public registration off', () => {
    const closed = () => identityTestBed({ policy: { publicRegistration: false } });

    it('requires authentication when there is no actor', async () => {
      const bed = closed();
      await expect(bed.registerUser.execute({ registration, actor: null })).rejects.toThrow(AuthenticationRequiredError);
      expect(bed.users.all()).toEqual([]);
    });

    it('refuses a non-admin actor', async () => {
      const bed = closed();
      const admin = await bed.signInAdmin();
      const { principal } = await bed.signUp({}, admin.principal);
      const error = await rejectionOf(bed.registerUser.execute({ registration, actor: principal }));
      expect(error).toBeInstanceOf(AdminRequiredError);
      expect((error as AdminRequiredError).requiredPrivileges).toEqual(['Admin']);
    });

    it('lets an admin register an account (a plain User)', async () => {
      const bed = closed();
      const admin = await bed.signInAdmin();
      const { user, token } = await bed.registerUser.execute({ registration, actor: admin.principal });
      expect(user.role).toBe('User');
      await expect(bed.authenticateToken.execute(token)).resolves.toMatchObject({ userId: user.id, role: 'User' });
    });

    it('checks permission before validating input', async () => {
      const bed = closed();
      await expect(
        bed.registerUser.execute({ registration: { email: 'x', username: '', uniqueUsername: '', password: '' }, actor: null }),
      ).rejects.toThrow(AuthenticationRequiredError);
    });
  });

  describe('throttling per client address', () => {
    const ADDRESS = '192.0.2.1';
    const account = (n: number) => ({ email: `u${n}@example.com`, username: `U ${n}`, uniqueUsername: `user${n}`, password: TEST_PASSWORD });
    const limited = () => identityTestBed({ policy: { throttle: { registrationsPerAddress: 3, windowSeconds: 60 } } });

    it('refuses requests past the limit from one address with the seconds to wait, and creates nothing', async () => {
      const bed = limited();
      for (let n = 0; n < 3; n++) await bed.registerUser.execute({ registration: account(n), actor: null, clientAddress: ADDRESS });
      bed.advanceSeconds(10);
      const error = await rejectionOf(bed.registerUser.execute({ registration: account(3), actor: null, clientAddress: ADDRESS }));
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      expect((error as TooManyAttemptsError).retryAfterSeconds).toBe(50);
      expect(bed.users.all()).toHaveLength(3);
      bed.advanceSeconds(50);
      await expect(bed.registerUser.execute({ registration: account(3), actor: null, clientAddress: ADDRESS })).resolves.toBeDefined();
    });

    it('counts refused registrations too (probing which emails have an account is throttled)', async () => {
      const bed = limited();
      await bed.registerUser.execute({ registration, actor: null, clientAddress: ADDRESS });
      for (let i = 0; i < 2; i++) {
        await expect(bed.registerUser.execute({ registration: { ...registration, uniqueUsername: `other${i}` }, actor: null, clientAddress: ADDRESS })).rejects.toThrow(InvalidAccountDataError);
      }
      await expect(bed.registerUser.execute({ registration: account(9), actor: null, clientAddress: ADDRESS })).rejects.toThrow(TooManyAttemptsError);
    });

    it('counts each address apart', async () => {
      const bed = limited();
      for (let n = 0; n < 3; n++) await bed.registerUser.execute({ registration: account(n), actor: null, clientAddress: ADDRESS });
      await expect(bed.registerUser.execute({ registration: account(3), actor: null, clientAddress: '198.51.100.7' })).resolves.toBeDefined();
    });

    it('does not count an Admin, nor the operator’s own tools (no address)', async () => {
      const bed = limited();
      const admin = await bed.signInAdmin();
      for (let n = 0; n < 5; n++) await bed.registerUser.execute({ registration: account(n), actor: admin.principal, clientAddress: ADDRESS });
      for (let n = 5; n < 10; n++) await bed.registerUser.execute({ registration: account(n), actor: null });
      expect(bed.attempts.countOf('register-address', ADDRESS)).toBe(0);
      await expect(bed.registerUser.execute({ registration: account(10), actor: null, clientAddress: ADDRESS })).resolves.toBeDefined();
    });

    it('with public registration off, refuses the unauthenticated before counting them', async () => {
      const bed = identityTestBed({ policy: { publicRegistration: false, throttle: { registrationsPerAddress: 1 } } });
      for (let i = 0; i < 3; i++) {
        await expect(bed.registerUser.execute({ registration, actor: null, clientAddress: ADDRESS })).rejects.toThrow(AuthenticationRequiredError);
      }
      expect(bed.attempts.countOf('register-address', ADDRESS)).toBe(0);
    });

    it('defaults to 10 per window', () => {
      expect(identityTestBed().policy.throttle.registrationsPerAddress).toBe(10);
    });
  });
});

describe('RegisterUser: integration events', () => {
  it('tells the outside world (webhooks) of a registration, and of nothing it refused', async () => {
    const bed = identityTestBed();
    const { user } = await bed.registerUser.execute({ registration, actor: null });
    await rejectionOf(bed.registerUser.execute({ registration, actor: null }));
    expect(bed.events.published).toEqual([{ type: 'user.registered', resource: `user:${user.id}`, data: { userid: user.id, unique_username: 'JaneDoe' }, at: bed.clock.now() }]);
  });
});
