import type { Page, UnitOfWork } from '@rc/shared-kernel';
import { InvalidAccountDataError, UserListOffsetTooLargeError, UserNotFoundError } from '../identity.errors.js';
import { User, type ProfileEdit, type UserId } from '../model/user.js';
import type { UserImages } from '../ports/user-images.js';
import type { UserListFilter, UserRepository } from '../ports/user.repository.js';

/** The deepest offset a user list answers (the original API's limit). */
export const MAX_USER_LIST_OFFSET = 1000;

/** A page of active accounts ordered by id; disabled accounts are never listed. */
export class ListUsers {
  constructor(private readonly users: UserRepository) {}

  async execute(input: { filter: UserListFilter; page: Page }): Promise<User[]> {
    if (input.page.offset > MAX_USER_LIST_OFFSET) throw new UserListOffsetTooLargeError(MAX_USER_LIST_OFFSET);
    if (input.page.limit === 0) return [];
    return this.users.listActive(input.filter, input.page);
  }
}

/**
 * The signed-in user edits their own profile. The input is checked before anything is read; the
 * account is then read and locked, changed and saved in one unit of work, so two concurrent edits
 * run one after the other and neither loses the other's fields. An edit that changes nothing
 * writes nothing. A new avatar (`image`) must be an image the user may show: their own, or one
 * shown by content they may view (422 on `image` otherwise).
 */
export class EditProfile {
  constructor(
    private readonly users: UserRepository,
    private readonly uow: UnitOfWork,
    private readonly images: UserImages,
  ) {}

  async execute(input: { userId: UserId; edit: ProfileEdit }): Promise<User> {
    const change = User.checkProfileEdit(input.edit);
    return this.uow.run(async () => {
      const user = await this.users.findByIdForUpdate(input.userId);
      if (!user?.isActive) throw new UserNotFoundError();
      const image = change.imageId;
      if (image !== undefined && image !== null && image !== user.imageId) {
        const usable = await this.images.usableBy({ userId: user.id, isAdmin: user.role === 'Admin' }, [image]);
        if (!usable.has(image)) throw new InvalidAccountDataError([{ field: 'image', message: `image: ${image} is not an image of yours or one shown by content you may view` }]);
      }
      if (user.editProfile(input.edit)) await this.users.save(user);
      return user;
    });
  }
}
