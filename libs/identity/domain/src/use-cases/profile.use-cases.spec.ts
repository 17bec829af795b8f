import { InvalidAccountDataError, UserListOffsetTooLargeError, UserNotFoundError } from '../identity.errors.js';
import type { UserId } from '../model/user.js';
import { identityTestBed, rejectionOf } from '../testing/index.js';
import { MAX_USER_LIST_OFFSET } from './profile.use-cases.js';

describe('ListUsers', () => {
  /** Five accounts that joined a minute apart; the third is disabled. */
  async function bedWithUsers() {
    const bed = identityTestBed();
    const ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await bed.signUp()).user.id);
      bed.advanceSeconds(60);
    }
    bed.users.setStatus(ids[2]!, 'disabled');
    return { bed, ids };
  }
  const idsOf = (users: { id: number }[]) => users.map((u) => u.id);

  it('lists active accounts by id, ascending or descending, without disabled ones', async () => {
    const { bed, ids } = await bedWithUsers();
    const page = { limit: 20, offset: 0 };
    expect(idsOf(await bed.listUsers.execute({ filter: { order: 'ASC' }, page }))).toEqual([ids[0], ids[1], ids[3], ids[4]]);
    expect(idsOf(await bed.listUsers.execute({ filter: { order: 'DESC' }, page }))).toEqual([ids[4], ids[3], ids[1], ids[0]]);
  });

  it('pages with limit and offset', async () => {
    const { bed, ids } = await bedWithUsers();
    expect(idsOf(await bed.listUsers.execute({ filter: { order: 'ASC' }, page: { limit: 2, offset: 1 } }))).toEqual([ids[1], ids[3]]);
    expect(await bed.listUsers.execute({ filter: { order: 'ASC' }, page: { limit: 2, offset: 4 } })).toEqual([]);
    expect(await bed.listUsers.execute({ filter: { order: 'ASC' }, page: { limit: 0, offset: 0 } })).toEqual([]);
  });

  it('keeps accounts that joined at joinedSince or later', async () => {
    const { bed, ids } = await bedWithUsers();
    const third = (await bed.users.findById(ids[1]!))!.joinedAt;
    expect(idsOf(await bed.listUsers.execute({ filter: { order: 'ASC', joinedSince: third }, page: { limit: 20, offset: 0 } }))).toEqual([ids[1], ids[3], ids[4]]);
    expect(idsOf(await bed.listUsers.execute({ filter: { order: 'ASC', joinedSince: new Date(third.getTime() + 1) }, page: { limit: 20, offset: 0 } }))).toEqual([ids[3], ids[4]]);
  });

  it(`answers offsets up to ${MAX_USER_LIST_OFFSET} and refuses deeper ones`, async () => {
    const { bed } = await bedWithUsers();
    await expect(bed.listUsers.execute({ filter: { order: 'ASC' }, page: { limit: 20, offset: MAX_USER_LIST_OFFSET } })).resolves.toEqual([]);
    const error = await rejectionOf(bed.listUsers.execute({ filter: { order: 'ASC' }, page: { limit: 20, offset: MAX_USER_LIST_OFFSET + 1 } }));
    expect(error).toBeInstanceOf(UserListOffsetTooLargeError);
    expect(error).toMatchObject({ message: 'Offset must be <= 1000', violations: [{ field: 'offset', message: 'Offset must be <= 1000' }] });
  });
});

describe('EditProfile', () => {
  it('edits the profile under a lock, in a unit of work, and saves it', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp();
    const runs = bed.uow.runs;
    const edited = await bed.editProfile.execute({ userId: user.id, edit: { about: 'Hello', location: 'Lyon' } });
    expect(edited).toMatchObject({ id: user.id, about: 'Hello', location: 'Lyon' });
    expect(await bed.users.findById(user.id)).toMatchObject({ about: 'Hello', location: 'Lyon' });
    expect(bed.uow.runs).toBe(runs + 1);
    expect(bed.users.lockedReads).toBe(1);
  });

  it('keeps the fields of an earlier edit of other fields', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp();
    await bed.editProfile.execute({ userId: user.id, edit: { about: 'About', summary: 'Summary' } });
    await bed.editProfile.execute({ userId: user.id, edit: { summary: 'Newer', location: 'Lyon', langid: 'de' } });
    expect(await bed.users.findById(user.id)).toMatchObject({ about: 'About', summary: 'Newer', location: 'Lyon', langid: 'de', username: user.username });
  });

  it('writes nothing for an edit that changes nothing', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp();
    const saves = bed.users.saves;
    await expect(bed.editProfile.execute({ userId: user.id, edit: { username: user.username } })).resolves.toMatchObject({ username: user.username });
    await bed.editProfile.execute({ userId: user.id, edit: {} });
    expect(bed.users.saves).toBe(saves);
  });

  it('refuses an invalid edit before reading the account, listing every field', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp();
    const error = await rejectionOf(bed.editProfile.execute({ userId: user.id, edit: { username: '', langid: 'EN', summary: 'fine' } }));
    expect(error).toBeInstanceOf(InvalidAccountDataError);
    expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['username', 'langid']);
    expect(bed.users.lockedReads).toBe(0);
    expect((await bed.users.findById(user.id))!.summary).toBeNull();
  });

  it('does not edit a disabled or unknown account', async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp();
    bed.users.setStatus(user.id, 'disabled');
    await expect(bed.editProfile.execute({ userId: user.id, edit: { about: 'x' } })).rejects.toThrow(UserNotFoundError);
    await expect(bed.editProfile.execute({ userId: 99 as UserId, edit: { about: 'x' } })).rejects.toThrow(UserNotFoundError);
    expect((await bed.users.findById(user.id))!.about).toBe('');
  });
});

describe('EditProfile: the avatar', () => {
  it("takes the user's own image, clears it with null, and refuses another user's or an unknown id (422 on image)", async () => {
    const bed = identityTestBed();
    const { user } = await bed.signUp();
    const { user: someone } = await bed.signUp();
    bed.images.add(user.id, 7);
    bed.images.add(someone.id, 8);
    expect((await bed.editProfile.execute({ userId: user.id, edit: { image: 7 } })).imageId).toBe(7);
    for (const image of [8, 9]) {
      const error = await rejectionOf(bed.editProfile.execute({ userId: user.id, edit: { image, about: 'Not written' } }));
      expect(error).toBeInstanceOf(InvalidAccountDataError);
      expect((error as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['image']);
    }
    expect((await bed.users.findById(user.id as UserId))!.imageId).toBe(7);
    expect((await bed.users.findById(user.id as UserId))!.about).toBe('');
    expect((await bed.editProfile.execute({ userId: user.id, edit: { image: null } })).imageId).toBeNull();
    const wrong = await rejectionOf(bed.editProfile.execute({ userId: user.id, edit: { image: 'seven' } }));
    expect((wrong as InvalidAccountDataError).violations.map((v) => v.field)).toEqual(['image']);
  });
});
