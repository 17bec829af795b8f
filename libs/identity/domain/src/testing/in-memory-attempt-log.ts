import { AttemptLog, type AttemptKind } from '../ports/attempt-log.js';

interface Attempt {
  readonly id: string;
  readonly kind: AttemptKind;
  readonly key: string;
  readonly at: Date;
}

/** The attempt log as a list. `since` is exclusive, as `at > $since` in SQL. */
export class InMemoryAttemptLog extends AttemptLog {
  private attempts: Attempt[] = [];
  private nextId = 1;

  async countSince(kind: AttemptKind, key: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const times = this.attempts
      .filter((a) => a.kind === kind && a.key === key && a.at.getTime() > since.getTime())
      .map((a) => a.at.getTime());
    return { count: times.length, oldest: times.length ? new Date(Math.min(...times)) : null };
  }

  async record(kind: AttemptKind, key: string, at: Date): Promise<string> {
    const id = String(this.nextId++);
    this.attempts.push({ id, kind, key, at: new Date(at) });
    return id;
  }

  async remove(ids: readonly string[]): Promise<void> {
    this.attempts = this.attempts.filter((a) => !ids.includes(a.id));
  }

  async clear(kind: AttemptKind, key: string): Promise<void> {
    this.attempts = this.attempts.filter((a) => !(a.kind === kind && a.key === key));
  }

  // --- Test helpers (not part of the port) ---

  /** All recorded attempts of a kind and key, whatever their age. */
  countOf(kind: AttemptKind, key: string): number {
    return this.attempts.filter((a) => a.kind === kind && a.key === key).length;
  }
}
