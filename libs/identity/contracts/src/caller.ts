/**
 * The authenticated caller as other contexts' HTTP adapters see it: the owner of a valid token.
 * The identity context's guard puts its Principal (which is one) on the request.
 */
export interface Caller {
  readonly userId: number;
  readonly role: 'User' | 'Admin';
}
