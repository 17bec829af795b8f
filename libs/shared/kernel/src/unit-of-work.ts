/**
 * Runs a piece of work atomically: every repository call made inside `run` commits together or
 * not at all. Use cases that write more than one row take this port.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
