import { Secrets } from '../ports/secrets.js';

/**
 * Predictable secrets: `fake-secret-000001-token`, `fake-secret-000002-token`, ... They have the
 * shape of real tokens (/^[A-Za-z0-9_-]{16,256}$/), and their first 16 letters and digits differ,
 * so generated app ids differ too. The digest is readable: `digest:<secret>`.
 */
export class FakeSecrets extends Secrets {
  readonly generated: string[] = [];

  generate(): string {
    const secret = `fake-secret-${String(this.generated.length + 1).padStart(6, '0')}-token`;
    this.generated.push(secret);
    return secret;
  }

  digest(secret: string): string {
    return `digest:${secret}`;
  }

  /** The most recently generated secret. */
  get last(): string | undefined {
    return this.generated[this.generated.length - 1];
  }
}
