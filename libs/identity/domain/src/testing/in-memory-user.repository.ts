import { InvalidAccountDataError } from '../identity.errors.js';
import type { Email } from '../model/email.js';
import { User, type UserCard, type UserId, type UserState, type UserStatus } from '../model/user.js';
import type { Page } from '@rc/shared-kernel';
import { UserRepository, type UserListFilter } from '../ports/user.repository.js';

/**
 * Users kept in a map. Like a database, it stores a snapshot of the state on `save` and hands out
 * a fresh instance (hydrated without the constructor) on every read: a change is visible only once
 * it has been saved.
 */
export class InMemoryUserRepository extends UserRepository {
  private readonly rows = new Map<UserId, UserState>();
  private lastId = 0;
  /** How many times `findByIdForUpdate` was asked (to show that writes read under a lock). */
  lockedReads = 0;
  /** How many times `save` was called. */
  saves = 0;

  async nextId(): Promise<UserId> {
    this.lastId += 1;
    return this.lastId as UserId;
  }

  async findById(id: UserId): Promise<User | null> {
    const row = this.rows.get(id);
    return row ? hydrate(row) : null;
  }

  /** Nothing runs concurrently here, so reading is enough. */
  findByIdForUpdate(id: UserId): Promise<User | null> {
    this.lockedReads += 1;
    return this.findById(id);
  }

  async listActive(filter: UserListFilter, page: Page): Promise<User[]> {
    const since = filter.joinedSince?.getTime();
    const rows = [...this.rows.values()]
      .filter((r) => r.status === 'active' && (since === undefined || r.joinedAt.getTime() >= since))
      .sort((a, b) => (filter.order === 'ASC' ? a.id - b.id : b.id - a.id));
    return rows.slice(page.offset, page.offset + page.limit).map(hydrate);
  }

  async findCards(ids: readonly UserId[]): Promise<UserCard[]> {
    return [...new Set(ids)].flatMap((id) => {
      const row = this.rows.get(id);
      return row?.status === 'active' ? [{ id: row.id, username: row.username, uniqueUsername: row.uniqueUsername, joinedAt: new Date(row.joinedAt.getTime()), imageId: row.imageId }] : [];
    });
  }

  async findByEmail(email: Email): Promise<User | null> {
    const row = [...this.rows.values()].find((r) => r.email === email);
    return row ? hydrate(row) : null;
  }

  async findTaken(email: Email, uniqueUsername: string): Promise<{ email: boolean; uniqueUsername: boolean }> {
    const rows = [...this.rows.values()];
    const key = uniqueUsername.toLowerCase();
    return {
      email: rows.some((r) => r.email === email),
      uniqueUsername: rows.some((r) => r.uniqueUsername.toLowerCase() === key),
    };
  }

  async save(user: User): Promise<void> {
    const others = [...this.rows.values()].filter((r) => r.id !== user.id);
    const violations = [
      ...(others.some((r) => r.email === user.email) ? [{ field: 'email', message: 'An account with this email address already exists' }] : []),
      ...(others.some((r) => r.uniqueUsername.toLowerCase() === user.uniqueUsername.toLowerCase())
        ? [{ field: 'unique_username', message: 'This unique_username is taken' }]
        : []),
    ];
    if (violations.length) throw new InvalidAccountDataError(violations);
    this.saves += 1;
    this.rows.set(user.id, snapshot(user));
  }

  // --- Test helpers (not part of the port) ---

  /** Every stored account, in id order. */
  all(): User[] {
    return [...this.rows.values()].sort((a, b) => a.id - b.id).map(hydrate);
  }

  /** Sets the stored join time directly (registration takes it from the clock). */
  setJoinedAt(id: UserId, joinedAt: Date): void {
    const row = this.rows.get(id);
    if (!row) throw new Error(`No user ${id}`);
    this.rows.set(id, { ...row, joinedAt: new Date(joinedAt) });
  }

  /** Sets the stored status directly (the domain has no method to disable an account). */
  setStatus(id: UserId, status: UserStatus): void {
    const row = this.rows.get(id);
    if (!row) throw new Error(`No user ${id}`);
    this.rows.set(id, { ...row, status });
  }
}

function snapshot(user: UserState): UserState {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    uniqueUsername: user.uniqueUsername,
    passwordHash: user.passwordHash,
    role: user.role,
    status: user.status,
    joinedAt: new Date(user.joinedAt),
    about: user.about,
    summary: user.summary,
    location: user.location,
    langid: user.langid,
    imageId: user.imageId,
  };
}

/** As the persistence layer does: an instance made without calling the (private) constructor. */
function hydrate(row: UserState): User {
  return Object.assign(Object.create(User.prototype) as User, snapshot(row));
}
