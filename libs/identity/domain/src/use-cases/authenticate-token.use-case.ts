import type { Clock } from '@rc/shared-kernel';
import { AuthenticationRequiredError } from '../identity.errors.js';
import type { Principal } from '../model/principal.js';
import type { AuthTokenRepository } from '../ports/auth-token.repository.js';
import type { Secrets } from '../ports/secrets.js';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,256}$/;

/** Resolves a token to its owner. Malformed, unknown, expired and revoked tokens all fail the same way. */
export class AuthenticateToken {
  constructor(
    private readonly tokens: AuthTokenRepository,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<Principal> {
    if (!TOKEN_SHAPE.test(token)) throw new AuthenticationRequiredError();
    const tokenDigest = this.secrets.digest(token);
    const owner = await this.tokens.findOwner(tokenDigest, this.clock.now());
    if (!owner) throw new AuthenticationRequiredError();
    return { userId: owner.userId, role: owner.role, tokenDigest };
  }
}
