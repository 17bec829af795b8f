import type { Role } from '../model/role.js';
import type { UserId } from '../model/user.js';
import { AuthTokenRepository, type AuthTokenRecord } from '../ports/auth-token.repository.js';
import type { InMemoryUserRepository } from './in-memory-user.repository.js';

interface StoredToken extends AuthTokenRecord {
  /** Insertion order: breaks ties between tokens created at the same instant. */
  readonly seq: number;
}

/** Token digests kept in a map; owners are looked up in the user fake to know their role and status. */
export class InMemoryAuthTokenRepository extends AuthTokenRepository {
  private readonly rows = new Map<string, StoredToken>();
  private seq = 0;
  /** How many times `findOwner` was asked (to show that malformed tokens never reach the store). */
  lookups = 0;

  constructor(private readonly users: InMemoryUserRepository) {
    super();
  }

  async add(token: AuthTokenRecord, keepNewest?: number): Promise<void> {
    if (this.rows.has(token.digest)) throw new Error('Duplicate token digest');
    this.seq += 1;
    this.rows.set(token.digest, { ...token, createdAt: new Date(token.createdAt), expiresAt: new Date(token.expiresAt), seq: this.seq });
    if (keepNewest !== undefined) this.trim(token.userId, keepNewest, token.createdAt);
  }

  async findOwner(digest: string, now: Date): Promise<{ userId: UserId; role: Role } | null> {
    this.lookups += 1;
    const token = this.rows.get(digest);
    if (!token || isExpired(token, now)) return null;
    const user = await this.users.findById(token.userId);
    if (!user?.isActive) return null;
    return { userId: user.id, role: user.role };
  }

  async remove(digest: string): Promise<void> {
    this.rows.delete(digest);
  }

  async removeAllOf(userId: UserId): Promise<void> {
    for (const token of [...this.rows.values()]) if (token.userId === userId) this.rows.delete(token.digest);
  }

  private trim(userId: UserId, keep: number, now: Date): void {
    const live = this.stored(userId).filter((t) => {
      if (!isExpired(t, now)) return true;
      this.rows.delete(t.digest);
      return false;
    });
    // Newest first; everything after the first `keep` goes.
    for (const token of live.slice(Math.max(keep, 0))) this.rows.delete(token.digest);
  }

  /** The stored tokens of a user, newest first (ties: the later added first). */
  private stored(userId: UserId): StoredToken[] {
    return [...this.rows.values()]
      .filter((t) => t.userId === userId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.seq - a.seq);
  }

  // --- Test helpers (not part of the port) ---

  /** The stored tokens of a user, newest first. */
  tokensOf(userId: UserId): AuthTokenRecord[] {
    return this.stored(userId).map(({ seq: _seq, ...record }) => record);
  }

  get size(): number {
    return this.rows.size;
  }
}

function isExpired(token: AuthTokenRecord, now: Date): boolean {
  return token.expiresAt.getTime() <= now.getTime();
}
