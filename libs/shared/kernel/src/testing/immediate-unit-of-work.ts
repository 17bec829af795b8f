import { UnitOfWork } from '../unit-of-work.js';

/** For domain unit tests with in-memory fakes: the work simply runs. */
export class ImmediateUnitOfWork extends UnitOfWork {
  runs = 0;

  run<T>(work: () => Promise<T>): Promise<T> {
    this.runs++;
    return work();
  }
}
