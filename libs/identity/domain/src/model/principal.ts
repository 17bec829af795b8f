import type { Role } from './role.js';
import type { UserId } from './user.js';

/** Who is calling: the owner of a valid token. */
export interface Principal {
  readonly userId: UserId;
  readonly role: Role;
  /** The digest of the token used, so that logging out revokes exactly that token. */
  readonly tokenDigest: string;
}

export function isAdmin(principal: Principal | null | undefined): boolean {
  return principal?.role === 'Admin';
}
