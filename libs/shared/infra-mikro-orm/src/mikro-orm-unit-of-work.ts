import { DeadlockException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UnitOfWork } from '@rc/shared-kernel';

const ATTEMPTS = 3;

/** PostgreSQL gave up on the transaction to let another one through: running it again is safe. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return error instanceof DeadlockException || code === '40P01' || code === '40001';
}

/**
 * One database transaction. Repositories hold the contextual EntityManager, which resolves to the
 * transaction's manager inside `run`, so every write they make joins it.
 */
export class MikroOrmUnitOfWork extends UnitOfWork {
  constructor(private readonly em: EntityManager) {
    super();
  }

  /**
   * Runs the work in a transaction. One that PostgreSQL aborts to break a deadlock (or a
   * serialization failure) is run again from the start, up to three times: it sees the other
   * transaction's result then, and decides again (a conflicting move becomes a 422, say).
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.em.transactional(() => work());
      } catch (error) {
        if (attempt >= ATTEMPTS || !isTransient(error) || this.em.isInTransaction()) throw error;
      }
    }
  }
}
