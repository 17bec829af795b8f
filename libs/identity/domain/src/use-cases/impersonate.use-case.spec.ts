import { AdminRequiredError, UserNotFoundError } from '../identity.errors.js';
import type { UserId } from '../model/user.js';
import { identityTestBed } from '../testing/index.js';

describe('Impersonate', () => {
  it('gives an admin a token acting as the target', async () => {
    const bed = identityTestBed();
    const admin = await bed.signInAdmin();
    const target = await bed.signUp();
    const { user, token } = await bed.impersonate.execute({ actor: admin.principal, userId: target.user.id });
    expect(user.id).toBe(target.user.id);
    await expect(bed.authenticateToken.execute(token)).resolves.toMatchObject({ userId: target.user.id, role: 'User' });
    // The admin's own session is untouched.
    await expect(bed.authenticateToken.execute(admin.token)).resolves.toMatchObject({ role: 'Admin' });
  });

  it('refuses a non-admin', async () => {
    const bed = identityTestBed();
    const actor = await bed.signUp();
    const target = await bed.signUp();
    await expect(bed.impersonate.execute({ actor: actor.principal, userId: target.user.id })).rejects.toThrow(AdminRequiredError);
    expect(bed.tokens.tokensOf(target.user.id)).toHaveLength(1);
  });

  it('refuses an unknown user', async () => {
    const bed = identityTestBed();
    const admin = await bed.signInAdmin();
    await expect(bed.impersonate.execute({ actor: admin.principal, userId: 999 as UserId })).rejects.toThrow(UserNotFoundError);
  });

  it('refuses a disabled user', async () => {
    const bed = identityTestBed();
    const admin = await bed.signInAdmin();
    const target = await bed.signUp();
    bed.users.setStatus(target.user.id, 'disabled');
    await expect(bed.impersonate.execute({ actor: admin.principal, userId: target.user.id })).rejects.toThrow(UserNotFoundError);
  });
});
