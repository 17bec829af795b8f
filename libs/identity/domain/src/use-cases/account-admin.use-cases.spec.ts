import { AuthenticationRequiredError, InvalidAccountDataError, InvalidLoginError, UserNotFoundError } from '../identity.errors.js';
import { identityTestBed, rejectionOf, TEST_PASSWORD } from '../testing/index.js';

describe('EnsureAdmin', () => {
  it('creates an admin account that can log in', async () => {
    const bed = identityTestBed();
    const { user, created } = await bed.ensureAdmin.execute({ email: ' Root@Example.com ', password: TEST_PASSWORD });
    expect(created).toBe(true);
    expect(user).toMatchObject({ email: 'root@example.com', role: 'Admin', status: 'active', username: 'Administrator', uniqueUsername: 'rootadmin' });
    expect(await bed.users.findById(user.id)).toMatchObject({ role: 'Admin', passwordHash: `hashed:${TEST_PASSWORD}` });
    const { token } = await bed.logIn.execute({ email: 'root@example.com', password: TEST_PASSWORD, clientAddress: '127.0.0.1' });
    await expect(bed.authenticateToken.execute(token)).resolves.toMatchObject({ userId: user.id, role: 'Admin' });
  });

  it('uses a given display name', async () => {
    const bed = identityTestBed();
    const { user } = await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD, username: '  Site Owner ' });
    expect(user.username).toBe('Site Owner');
  });

  it('replaces an unusable display name instead of storing it', async () => {
    const bed = identityTestBed();
    const { user } = await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD, username: 'A\u0000' + 'x'.repeat(100) });
    expect(user.username).toBe('Administrator');
  });

  it('re-enables a disabled account it is asked to make an admin', async () => {
    const bed = identityTestBed();
    const { user } = await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    bed.users.setStatus(user.id, 'disabled');
    const again = await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    expect(again.user.status).toBe('active');
    await expect(bed.logIn.execute({ email: 'root@example.com', password: TEST_PASSWORD, clientAddress: '127.0.0.1' })).resolves.toBeDefined();
  });

  it('is idempotent', async () => {
    const bed = identityTestBed();
    const first = await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    const second = await bed.ensureAdmin.execute({ email: 'ROOT@example.com', password: TEST_PASSWORD });
    expect(second.created).toBe(false);
    expect(second.user.id).toBe(first.user.id);
    expect(second.user.role).toBe('Admin');
    expect(bed.users.all()).toHaveLength(1);
    expect(await bed.users.findById(first.user.id)).toEqual(await bed.users.findById(second.user.id));
  });

  it('sets a changed password on the existing account', async () => {
    const bed = identityTestBed();
    const first = await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    const second = await bed.ensureAdmin.execute({ email: 'root@example.com', password: 'the new admin password' });
    expect(second).toMatchObject({ created: false, user: { id: first.user.id, role: 'Admin' } });
    expect((await bed.users.findById(first.user.id))?.passwordHash).toBe('hashed:the new admin password');
    await expect(bed.logIn.execute({ email: 'root@example.com', password: TEST_PASSWORD, clientAddress: 'x' })).rejects.toThrow(InvalidLoginError);
    await expect(bed.logIn.execute({ email: 'root@example.com', password: 'the new admin password', clientAddress: 'x' })).resolves.toBeDefined();
  });

  it('signs the account out everywhere when it changes the password, and only then', async () => {
    const bed = identityTestBed();
    await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    const { token } = await bed.logIn.execute({ email: 'root@example.com', password: TEST_PASSWORD, clientAddress: 'x' });
    await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    await expect(bed.authenticateToken.execute(token)).resolves.toBeDefined();
    await bed.ensureAdmin.execute({ email: 'root@example.com', password: 'the new admin password' });
    await expect(bed.authenticateToken.execute(token)).rejects.toThrow(AuthenticationRequiredError);
  });

  it('promotes an existing user and sets its password', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp({ email: 'jane@example.com', uniqueUsername: 'jane', username: 'Jane' });
    const result = await bed.ensureAdmin.execute({ email: 'jane@example.com', password: 'the admin password' });
    expect(result).toMatchObject({ created: false, user: { id: user.id, role: 'Admin', username: 'Jane', uniqueUsername: 'jane' } });
    expect(await bed.users.findById(user.id)).toMatchObject({ role: 'Admin', passwordHash: 'hashed:the admin password' });
  });

  it('finds a free unique_username', async () => {
    const bed = identityTestBed();
    await bed.signUp({ uniqueUsername: 'RootAdmin' });
    await bed.signUp({ uniqueUsername: 'rootadmin1' });
    const { user } = await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    expect(user.uniqueUsername).toBe('rootadmin2');
  });

  it('makes a valid unique_username from any address', async () => {
    const bed = identityTestBed();
    const { user: a } = await bed.ensureAdmin.execute({ email: '__ops.team+x@example.com', password: TEST_PASSWORD });
    const { user: b } = await bed.ensureAdmin.execute({ email: `${'x'.repeat(64)}@example.com`, password: TEST_PASSWORD });
    expect(a.uniqueUsername).toBe('opsteamxadmin');
    expect(b.uniqueUsername).toBe('x'.repeat(24));
    for (const name of [a.uniqueUsername, b.uniqueUsername]) expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{2,29}$/);
  });

  it('refuses a bad email and a weak password, listing both', async () => {
    const bed = identityTestBed();
    const error = await rejectionOf(bed.ensureAdmin.execute({ email: 'root', password: 'short' }));
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['email', 'password']);
    expect(bed.users.all()).toEqual([]);
  });

  it('refuses a weak password for an existing admin, leaving it unchanged', async () => {
    const bed = identityTestBed();
    const { user } = await bed.ensureAdmin.execute({ email: 'root@example.com', password: TEST_PASSWORD });
    const error = await rejectionOf(bed.ensureAdmin.execute({ email: 'root@example.com', password: 'short' }));
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['password']);
    expect((await bed.users.findById(user.id))?.passwordHash).toBe(`hashed:${TEST_PASSWORD}`);
  });
});

describe('SetUserRole', () => {
  it('gives an account a role, and takes it back', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp({ email: 'jane@example.com', uniqueUsername: 'jane' });
    await expect(bed.setUserRole.execute({ email: 'JANE@example.com', role: 'Admin' })).resolves.toMatchObject({ id: user.id, role: 'Admin' });
    expect((await bed.users.findById(user.id))?.role).toBe('Admin');
    await bed.setUserRole.execute({ email: 'jane@example.com', role: 'User' });
    expect((await bed.users.findById(user.id))?.role).toBe('User');
  });

  it.each(['nobody@example.com', 'not an email', undefined])('does not find %p', async (email) => {
    const bed = identityTestBed();
    await bed.signUp();
    await expect(bed.setUserRole.execute({ email, role: 'Admin' })).rejects.toThrow(UserNotFoundError);
  });
});
