import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InvalidAccountDataError, User, UserRepository, type Email, type UserCard, type UserId, type UserListFilter } from '@rc/identity-domain';
import { intArrayLiteral, PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';
import type { Page } from '@rc/shared-kernel';

/** The account of an email (every login runs it): prepared, so each connection plans it once. */
const BY_EMAIL = new PreparedStatement('SELECT * FROM users WHERE email = ?');
/** What a page or a search shows of its authors (active accounts only). */
const CARDS_BY_ID = new PreparedStatement("SELECT id, username, unique_username, (extract(epoch FROM joined_at) * 1000)::float8 AS joined_ms, image_id FROM users WHERE id = ANY(?::int[]) AND status = 'active'");

interface CardRow {
  readonly id: number;
  readonly username: string;
  readonly unique_username: string;
  /** Milliseconds since the epoch (the ORM's connection reads timestamps as text). */
  readonly joined_ms: number;
  readonly image_id: number | null;
}

/**
 * One page of active accounts in id order. The partial index `users_active_id_idx` (id, only
 * active rows) gives the order without a sort and without visiting disabled accounts.
 */
export function userListSql(filter: UserListFilter): string {
  const direction = filter.order === 'DESC' ? 'DESC' : 'ASC';
  return `SELECT * FROM users WHERE status = 'active'${filter.joinedSince ? ' AND joined_at >= ?' : ''} ORDER BY id ${direction} LIMIT ? OFFSET ?`;
}

export class MikroOrmUserRepository extends UserRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async nextId(): Promise<UserId> {
    const [row] = await this.em.execute<{ id: number }[]>(`SELECT nextval('users_id_seq')::int AS id`);
    return row!.id as UserId;
  }

  findById(id: UserId): Promise<User | null> {
    return this.em.findOne(User, { id });
  }

  /** `SELECT ... FOR UPDATE`, refreshed even if the account was read earlier in the request. */
  findByIdForUpdate(id: UserId): Promise<User | null> {
    return this.em.findOne(User, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  async listActive(filter: UserListFilter, page: Page): Promise<User[]> {
    const params: unknown[] = [...(filter.joinedSince ? [filter.joinedSince] : []), page.limit, page.offset];
    const rows = await this.em.execute<Record<string, unknown>[]>(userListSql(filter), params);
    return rows.map((row) => this.em.map(User, row));
  }

  /**
   * One prepared statement (every first read of a page or a search lists its authors) of five
   * columns, mapped to plain objects: no entity is built and nothing joins the identity map, which
   * cost more than the statement for a page of 200 authors.
   */
  async findCards(ids: readonly UserId[]): Promise<UserCard[]> {
    if (!ids.length) return [];
    const rows = await queryPrepared<CardRow>(this.em, CARDS_BY_ID, [intArrayLiteral(ids)]);
    return rows.map((r) => ({ id: r.id as UserId, username: r.username, uniqueUsername: r.unique_username, joinedAt: new Date(r.joined_ms), imageId: r.image_id }));
  }

  /** Mapped as the ORM's own `findOne` maps it (the entity is managed), without building the query each time. */
  async findByEmail(email: Email): Promise<User | null> {
    const [row] = await queryPrepared<Record<string, unknown>>(this.em, BY_EMAIL, [email]);
    return row ? this.em.map(User, row) : null;
  }

  async findTaken(email: Email, uniqueUsername: string): Promise<{ email: boolean; uniqueUsername: boolean }> {
    const [row] = await this.em.execute<{ email: boolean; unique_username: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM users WHERE email = ?) AS email,
              EXISTS (SELECT 1 FROM users WHERE lower(unique_username) = lower(?)) AS unique_username`,
      [email, uniqueUsername],
    );
    return { email: row!.email, uniqueUsername: row!.unique_username };
  }

  async save(user: User): Promise<void> {
    try {
      await this.em.persist(user).flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        this.em.getUnitOfWork().unsetIdentity(user);
        const field = error.message.includes('users_email_key') ? 'email' : 'unique_username';
        throw new InvalidAccountDataError([
          { field, message: field === 'email' ? 'An account with this email address already exists' : 'This unique_username is taken' },
        ]);
      }
      throw error;
    }
  }
}
