/**
 * The accounts teams may hold. Users belong to the identity context: the application adapts its
 * use cases to this port, so the teams context knows users by id only.
 */
export abstract class UserDirectory {
  /** Whether `userId` is an active account. */
  abstract exists(userId: number): Promise<boolean>;
}
