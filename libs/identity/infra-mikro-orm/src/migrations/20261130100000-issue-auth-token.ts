import { Migration } from '@mikro-orm/migrations';

/**
 * A token issued with a cap on the user's tokens, in one statement (one round trip, one commit
 * when it is not part of a larger transaction) instead of four: `begin`, the row lock with the
 * INSERT, the trim, `commit`.
 *
 * The user's row lock serialises the logins of one user. The trim must see every token committed
 * before the lock was granted, which a single SQL statement cannot (its snapshot is taken before it
 * waits for the lock): a VOLATILE function takes a fresh snapshot for each statement it runs, so
 * its DELETE, after the lock is held, sees the tokens of every login that held the lock before.
 * Returns false, having written nothing, when there is no such user.
 */
export class IssueAuthToken extends Migration {
  override name = '20261130100000-issue-auth-token';

  up(): void {
    this.addSql(`
      CREATE FUNCTION issue_auth_token(p_user_id integer, p_digest varchar, p_created_at timestamptz, p_expires_at timestamptz, p_keep_newest integer)
      RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM 1 FROM users WHERE id = p_user_id FOR NO KEY UPDATE;
        IF NOT FOUND THEN
          RETURN false;
        END IF;
        INSERT INTO auth_tokens (digest, user_id, created_at, expires_at) VALUES (p_digest, p_user_id, p_created_at, p_expires_at);
        DELETE FROM auth_tokens
         WHERE user_id = p_user_id
           AND (expires_at <= p_created_at OR digest IN (
                 SELECT digest FROM auth_tokens WHERE user_id = p_user_id ORDER BY created_at DESC, digest OFFSET p_keep_newest));
        RETURN true;
      END;
      $$;
    `);
  }

  override down(): void {
    this.addSql('DROP FUNCTION issue_auth_token(integer, varchar, timestamptz, timestamptz, integer)');
  }
}
