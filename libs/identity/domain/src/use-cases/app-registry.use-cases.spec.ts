import { AppIdAlreadyRegisteredError, AppIdNotFoundError, InvalidAccountDataError, InvalidAppIdError } from '../identity.errors.js';
import { identityTestBed, rejectionOf } from '../testing/index.js';

describe('VerifyAppId', () => {
  const withApp = async () => {
    const bed = identityTestBed();
    await bed.registerApp.execute({ appId: 'web-client', name: 'Web' });
    return bed;
  };

  it('accepts a registered app id', async () => {
    const bed = await withApp();
    await expect(bed.verifyAppId.execute('web-client')).resolves.toBeUndefined();
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['too short', 'abc'],
    ['too long', 'a'.repeat(65)],
    ['with a space', 'web client'],
    ['with other characters', 'web.client'],
    ['unknown', 'mobile-client'],
    ['in another case', 'WEB-CLIENT'],
  ])('refuses an app id that is %s', async (_case, appId) => {
    const bed = await withApp();
    await expect(bed.verifyAppId.execute(appId)).rejects.toThrow(InvalidAppIdError);
  });

  it('refuses a revoked app id', async () => {
    const bed = await withApp();
    await bed.revokeApp.execute('web-client');
    await expect(bed.verifyAppId.execute('web-client')).rejects.toThrow(InvalidAppIdError);
  });
});

describe('RegisterApp', () => {
  it('registers a given app id', async () => {
    const bed = identityTestBed();
    const app = await bed.registerApp.execute({ appId: 'web-client', name: '  Web  ' });
    expect(app).toEqual({ appId: 'web-client', name: 'Web', createdAt: bed.clock.now(), revokedAt: null });
    await expect(bed.listApps.execute()).resolves.toEqual([app]);
  });

  it('names an app after its id when the name is blank', async () => {
    const bed = identityTestBed();
    await expect(bed.registerApp.execute({ appId: 'web-client', name: '  ' })).resolves.toMatchObject({ name: 'web-client' });
  });

  it('generates a 16-character id when none is given, different each time', async () => {
    const bed = identityTestBed();
    const a = await bed.registerApp.execute({ name: 'A' });
    const b = await bed.registerApp.execute({ name: 'B' });
    expect(a.appId).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(b.appId).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(a.appId).not.toBe(b.appId);
    await expect(bed.verifyAppId.execute(a.appId)).resolves.toBeUndefined();
  });

  it('refuses an id that is already registered', async () => {
    const bed = identityTestBed();
    await bed.registerApp.execute({ appId: 'web-client', name: 'Web' });
    const error = await rejectionOf(bed.registerApp.execute({ appId: 'web-client', name: 'Other' }));
    expect(error).toBeInstanceOf(AppIdAlreadyRegisteredError);
    expect((await bed.listApps.execute()).map((a) => a.name)).toEqual(['Web']);
  });

  it('with ifAbsent, returns the live registration unchanged', async () => {
    const bed = identityTestBed();
    const first = await bed.registerApp.execute({ appId: 'web-client', name: 'Web' });
    bed.advanceSeconds(10);
    await expect(bed.registerApp.execute({ appId: 'web-client', name: 'Other', ifAbsent: true })).resolves.toEqual(first);
    await expect(bed.listApps.execute()).resolves.toHaveLength(1);
  });

  it('with ifAbsent, leaves a revoked id revoked (configuration never undoes a revocation)', async () => {
    const bed = identityTestBed();
    await bed.registerApp.execute({ appId: 'web-client', name: 'Web' });
    await bed.revokeApp.execute('web-client');
    const again = await bed.registerApp.execute({ appId: 'web-client', name: 'Web', ifAbsent: true });
    expect(again.revokedAt).toEqual(bed.clock.now());
    await expect(bed.verifyAppId.execute('web-client')).rejects.toBeInstanceOf(InvalidAppIdError);
    await expect(bed.registerApp.execute({ appId: 'web-client', name: 'Web' })).rejects.toThrow(AppIdAlreadyRegisteredError);
  });

  it.each(['abc', 'has space', 'a'.repeat(65), 'dots.not.allowed', ''])('refuses the malformed id %p', async (appId) => {
    const bed = identityTestBed();
    const error = await rejectionOf(bed.registerApp.execute({ appId, name: 'x' }));
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['appId']);
  });
});

describe('RevokeApp', () => {
  it('marks the app revoked at the current time', async () => {
    const bed = identityTestBed();
    await bed.registerApp.execute({ appId: 'web-client', name: 'Web' });
    bed.advanceSeconds(60);
    await bed.revokeApp.execute('web-client');
    await expect(bed.listApps.execute()).resolves.toEqual([expect.objectContaining({ appId: 'web-client', revokedAt: bed.clock.now() })]);
  });

  it('refuses an unknown app id', async () => {
    const bed = identityTestBed();
    const error = await rejectionOf(bed.revokeApp.execute('nope-nope'));
    expect(error).toBeInstanceOf(AppIdNotFoundError);
    expect((error as AppIdNotFoundError).message).toContain('nope-nope');
  });
});
