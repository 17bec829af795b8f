import { AuthenticationRequiredError } from '../identity.errors.js';
import { identityTestBed, rejectionOf } from '../testing/index.js';

describe('AuthenticateToken', () => {
  it('resolves a live token to its owner, role and digest', async () => {
    const bed = identityTestBed();
    const { user, token } = await bed.signUp();
    await expect(bed.authenticateToken.execute(token)).resolves.toEqual({ userId: user.id, role: 'User', tokenDigest: `digest:${token}` });
  });

  it('reports the current role', async () => {
    const bed = identityTestBed();
    const { user, token } = await bed.signUp();
    await bed.setUserRole.execute({ email: user.email, role: 'Admin' });
    await expect(bed.authenticateToken.execute(token)).resolves.toMatchObject({ role: 'Admin' });
  });

  it.each([
    ['empty', ''],
    ['too short', 'abcdefghijklmno'],
    ['containing a space', 'abcdefgh ijklmnopqrst'],
    ['with a leading space', ' fake-secret-000001-token'],
    ['containing a dot', 'abcdefgh.ijklmnopqrst'],
    ['too long', 'a'.repeat(257)],
    ['non-ASCII', 'ééééééééééééééééé'],
  ])('rejects a malformed token (%s) without a lookup', async (_case, token) => {
    const bed = identityTestBed();
    await bed.signUp();
    const lookups = bed.tokens.lookups;
    const error = await rejectionOf(bed.authenticateToken.execute(token));
    expect(error).toBeInstanceOf(AuthenticationRequiredError);
    expect(bed.tokens.lookups).toBe(lookups);
  });

  it('rejects an unknown well-formed token', async () => {
    const bed = identityTestBed();
    await bed.signUp();
    await expect(bed.authenticateToken.execute('a'.repeat(43))).rejects.toThrow(AuthenticationRequiredError);
  });

  it('rejects an expired token', async () => {
    const bed = identityTestBed();
    const { token } = await bed.signUp();
    bed.advanceSeconds(bed.policy.tokenTtlSeconds - 1);
    await expect(bed.authenticateToken.execute(token)).resolves.toBeDefined();
    bed.advanceSeconds(2);
    await expect(bed.authenticateToken.execute(token)).rejects.toThrow(AuthenticationRequiredError);
  });

  it('honours a configured lifetime', async () => {
    const bed = identityTestBed({ policy: { tokenTtlSeconds: 60 } });
    const { token } = await bed.signUp();
    bed.advanceSeconds(61);
    await expect(bed.authenticateToken.execute(token)).rejects.toThrow(AuthenticationRequiredError);
  });

  it("rejects the token of a disabled account", async () => {
    const bed = identityTestBed();
    const { user, token } = await bed.signUp();
    bed.users.setStatus(user.id, 'disabled');
    await expect(bed.authenticateToken.execute(token)).rejects.toThrow(AuthenticationRequiredError);
  });
});
