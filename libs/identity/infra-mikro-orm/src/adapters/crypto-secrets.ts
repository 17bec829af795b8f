import { createHash, randomBytes } from 'node:crypto';
import { Secrets } from '@rc/identity-domain';

/** 256-bit random secrets in base64url; SHA-256 hex digests. */
export class CryptoSecrets extends Secrets {
  generate(): string {
    return randomBytes(32).toString('base64url');
  }

  digest(secret: string): string {
    return createHash('sha256').update(secret, 'utf8').digest('hex');
  }
}
