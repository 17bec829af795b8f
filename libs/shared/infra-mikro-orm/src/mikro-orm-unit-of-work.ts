import type { EntityManager } from '@mikro-orm/postgresql';
import { UnitOfWork } from '@rc/shared-kernel';

/**
 * One database transaction. Repositories hold the contextual EntityManager, which resolves to the
 * transaction's manager inside `run`, so every write they make joins it.
 */
export class MikroOrmUnitOfWork extends UnitOfWork {
  constructor(private readonly em: EntityManager) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.em.transactional(() => work());
  }
}
