/** Site roles, reported in `privileges` and `greatest_privilege`, least to greatest. */
export const ROLES = ['User', 'Admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The privileges a role carries: an Admin is also a User. */
export function privilegesOf(role: Role): Role[] {
  return ROLES.slice(0, ROLES.indexOf(role) + 1);
}
