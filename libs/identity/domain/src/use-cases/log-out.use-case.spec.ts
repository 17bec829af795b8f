import { AuthenticationRequiredError } from '../identity.errors.js';
import { identityTestBed, TEST_PASSWORD } from '../testing/index.js';

describe('LogOut', () => {
  it('revokes only the token used', async () => {
    const bed = identityTestBed();
    const { user, token: first } = await bed.signUp();
    const { token: second } = await bed.logIn.execute({ email: user.email, password: TEST_PASSWORD, clientAddress: '1.1.1.1' });
    const other = await bed.signUp();

    await bed.logOut.execute(await bed.authenticateToken.execute(first));

    await expect(bed.authenticateToken.execute(first)).rejects.toThrow(AuthenticationRequiredError);
    await expect(bed.authenticateToken.execute(second)).resolves.toMatchObject({ userId: user.id });
    await expect(bed.authenticateToken.execute(other.token)).resolves.toMatchObject({ userId: other.user.id });
  });

  it('is harmless when repeated', async () => {
    const bed = identityTestBed();
    const { principal } = await bed.signUp();
    await bed.logOut.execute(principal);
    await expect(bed.logOut.execute(principal)).resolves.toBeUndefined();
  });
});
