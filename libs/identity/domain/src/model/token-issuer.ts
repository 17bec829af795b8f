import type { Clock } from '@rc/shared-kernel';
import type { IdentityPolicy } from '../identity-policy.js';
import type { AuthTokenRepository } from '../ports/auth-token.repository.js';
import type { Secrets } from '../ports/secrets.js';
import type { UserId } from './user.js';

/** Creates a token for a user: only its digest is stored, and the user's oldest tokens beyond the cap are revoked. */
export class TokenIssuer {
  constructor(
    private readonly tokens: AuthTokenRepository,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly policy: Pick<IdentityPolicy, 'tokenTtlSeconds' | 'maxTokensPerUser'>,
  ) {}

  async issue(userId: UserId): Promise<string> {
    const token = this.secrets.generate();
    const now = this.clock.now();
    await this.tokens.add(
      { digest: this.secrets.digest(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + this.policy.tokenTtlSeconds * 1000) },
      this.policy.maxTokensPerUser,
    );
    return token;
  }
}
