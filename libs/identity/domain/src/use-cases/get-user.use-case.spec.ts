import { UserNotFoundError } from '../identity.errors.js';
import type { UserId } from '../model/user.js';
import { identityTestBed } from '../testing/index.js';

describe('GetUser', () => {
  it('returns an active account', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp();
    await expect(bed.getUser.execute(user.id)).resolves.toMatchObject({ id: user.id, email: user.email });
  });

  it('does not find an unknown account', async () => {
    const bed = identityTestBed();
    await expect(bed.getUser.execute(42 as UserId)).rejects.toThrow(UserNotFoundError);
  });

  it('does not find a disabled account', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp();
    bed.users.setStatus(user.id, 'disabled');
    await expect(bed.getUser.execute(user.id)).rejects.toThrow(UserNotFoundError);
  });
});
