import { Migration } from '@mikro-orm/migrations';

/** The identity context's tables. Written by hand: constraints and indexes are part of the design. */
export class IdentityInitial extends Migration {
  override name = '20261122000000-identity';

  up(): void {
    this.addSql(`
      CREATE SEQUENCE users_id_seq AS integer;
      CREATE TABLE users (
        id integer PRIMARY KEY,
        email varchar(254) NOT NULL,
        username varchar(60) NOT NULL,
        unique_username varchar(30) NOT NULL,
        password_hash text NOT NULL,
        role varchar(16) NOT NULL CHECK (role IN ('User', 'Admin')),
        status varchar(16) NOT NULL CHECK (status IN ('active', 'disabled')),
        joined_at timestamptz NOT NULL,
        about text NOT NULL,
        summary text NULL,
        location text NULL,
        langid varchar(2) NOT NULL,
        image_id integer NULL
      );
      ALTER SEQUENCE users_id_seq OWNED BY users.id;
      CREATE UNIQUE INDEX users_email_key ON users (email);
      CREATE UNIQUE INDEX users_unique_username_key ON users (lower(unique_username));
      CREATE INDEX users_joined_at_idx ON users (joined_at);

      CREATE TABLE auth_tokens (
        digest varchar(64) PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX auth_tokens_user_idx ON auth_tokens (user_id, created_at DESC);

      CREATE TABLE app_ids (
        app_id varchar(64) PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz NULL
      );

      CREATE TABLE auth_attempts (
        id bigserial PRIMARY KEY,
        kind varchar(16) NOT NULL,
        key text NOT NULL,
        at timestamptz NOT NULL
      );
      CREATE INDEX auth_attempts_lookup_idx ON auth_attempts (kind, key, at);
      CREATE INDEX auth_attempts_at_idx ON auth_attempts (at);

      CREATE TABLE password_resets (
        digest varchar(64) PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz NULL
      );
      CREATE INDEX password_resets_user_idx ON password_resets (user_id);

      CREATE TABLE mail_outbox (
        id bigserial PRIMARY KEY,
        recipient text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL,
        sent_at timestamptz NULL
      );
    `);
  }
}
