import type { UserId } from '../model/user.js';
import { PasswordResetRepository, type PasswordResetRecord } from '../ports/password-reset.repository.js';

interface StoredReset extends PasswordResetRecord {
  readonly usedAt: Date | null;
}

/** Reset codes (their digests) kept in a map. `consume` checks and marks in one synchronous step. */
export class InMemoryPasswordResetRepository extends PasswordResetRepository {
  private readonly rows = new Map<string, StoredReset>();

  async add(reset: PasswordResetRecord): Promise<void> {
    if (this.rows.has(reset.digest)) throw new Error('Duplicate reset code digest');
    this.rows.set(reset.digest, { ...reset, usedAt: null });
  }

  async consume(digest: string, now: Date): Promise<UserId | null> {
    const reset = this.rows.get(digest);
    if (!reset || reset.usedAt || reset.expiresAt.getTime() <= now.getTime()) return null;
    this.rows.set(digest, { ...reset, usedAt: new Date(now) });
    return reset.userId;
  }

  async revokeAllOf(userId: UserId, now: Date): Promise<void> {
    for (const [digest, reset] of this.rows) {
      if (reset.userId === userId && !reset.usedAt) this.rows.set(digest, { ...reset, usedAt: new Date(now) });
    }
  }

  // --- Test helpers (not part of the port) ---

  find(digest: string): (PasswordResetRecord & { usedAt: Date | null }) | null {
    const reset = this.rows.get(digest);
    return reset ? { ...reset } : null;
  }

  get size(): number {
    return this.rows.size;
  }
}
