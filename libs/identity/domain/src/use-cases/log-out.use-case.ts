import type { Principal } from '../model/principal.js';
import type { AuthTokenRepository } from '../ports/auth-token.repository.js';

/** Revokes the token the caller used; its other sessions stay. */
export class LogOut {
  constructor(private readonly tokens: AuthTokenRepository) {}

  async execute(principal: Principal): Promise<void> {
    await this.tokens.remove(principal.tokenDigest);
  }
}
