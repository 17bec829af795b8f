import { FixedClock } from '@rc/shared-kernel/testing';
import { FakeSecrets } from '../testing/fake-secrets.js';
import { InMemoryAuthTokenRepository } from '../testing/in-memory-auth-token.repository.js';
import { InMemoryUserRepository } from '../testing/in-memory-user.repository.js';
import { TokenIssuer } from './token-issuer.js';
import type { UserId } from './user.js';

describe('TokenIssuer', () => {
  const userId = 1 as UserId;
  const setup = () => {
    const clock = new FixedClock('2026-01-01T00:00:00Z');
    const tokens = new InMemoryAuthTokenRepository(new InMemoryUserRepository());
    const secrets = new FakeSecrets();
    return { clock, tokens, secrets, issuer: new TokenIssuer(tokens, secrets, clock, { tokenTtlSeconds: 3600, maxTokensPerUser: 2 }) };
  };

  it('returns a fresh secret and stores only its digest, with the expiry', async () => {
    const { issuer, tokens } = setup();
    const token = await issuer.issue(userId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{16,256}$/);
    expect(tokens.tokensOf(userId)).toEqual([
      { digest: `digest:${token}`, userId, createdAt: new Date('2026-01-01T00:00:00Z'), expiresAt: new Date('2026-01-01T01:00:00Z') },
    ]);
  });

  it('keeps only the newest tokens of the user', async () => {
    const { issuer, tokens, clock } = setup();
    const first = await issuer.issue(userId);
    clock.advance(1000);
    const second = await issuer.issue(userId);
    clock.advance(1000);
    const third = await issuer.issue(userId);
    expect(tokens.tokensOf(userId).map((t) => t.digest)).toEqual([`digest:${third}`, `digest:${second}`]);
    expect(first).not.toBe(second);
  });

  it("leaves other users' tokens alone", async () => {
    const { issuer, tokens } = setup();
    await issuer.issue(2 as UserId);
    for (let i = 0; i < 3; i++) await issuer.issue(userId);
    expect(tokens.tokensOf(2 as UserId)).toHaveLength(1);
    expect(tokens.tokensOf(userId)).toHaveLength(2);
  });

  it("drops the user's expired tokens", async () => {
    const { issuer, tokens, clock } = setup();
    await issuer.issue(userId);
    clock.advance(3600_000);
    const fresh = await issuer.issue(userId);
    expect(tokens.tokensOf(userId).map((t) => t.digest)).toEqual([`digest:${fresh}`]);
  });
});
