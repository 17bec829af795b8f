import { PasswordHashingBusyError } from '../identity.errors.js';
import { PasswordHasher } from '../ports/secrets.js';
import { BoundedPasswordHasher } from './bounded-password-hasher.js';

/** A hasher whose every call waits until the test ends it; it records how many run at once. */
class GatedHasher extends PasswordHasher {
  running = 0;
  maxRunning = 0;
  readonly started: string[] = [];
  private readonly gates: Array<{ password: string; end: (fail?: Error) => void }> = [];

  hash(password: string): Promise<string> {
    return this.run(password, () => `hashed:${password}`);
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.run(password, () => hash === `hashed:${password}`);
  }

  /** Ends the oldest running call (with an error when given). */
  endOldest(fail?: Error): void {
    const gate = this.gates.shift();
    if (!gate) throw new Error('no call is running');
    gate.end(fail);
  }

  private run<T>(password: string, result: () => T): Promise<T> {
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    this.started.push(password);
    return new Promise<T>((resolve, reject) => {
      this.gates.push({
        password,
        end: (fail) => {
          this.running--;
          if (fail) reject(fail);
          else resolve(result());
        },
      });
    });
  }
}

/** Lets every pending promise reaction run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedPasswordHasher', () => {
  it('runs at most `concurrency` hashes at once; the others wait and start in arrival order as slots free', async () => {
    const inner = new GatedHasher();
    const bounded = new BoundedPasswordHasher(inner, { concurrency: 2, maxWaiting: 10 });
    const results = ['a', 'b', 'c', 'd', 'e'].map((p) => bounded.verify('hashed:a', p));
    await settle();
    expect(inner.started).toEqual(['a', 'b']);
    expect(bounded.load).toEqual({ running: 2, waiting: 3 });

    inner.endOldest();
    await settle();
    expect(inner.started).toEqual(['a', 'b', 'c']);
    inner.endOldest();
    inner.endOldest();
    await settle();
    expect(inner.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    inner.endOldest();
    inner.endOldest();
    expect(await Promise.all(results)).toEqual([true, false, false, false, false]);
    expect(inner.maxRunning).toBe(2);
    expect(bounded.load).toEqual({ running: 0, waiting: 0 });
  });

  it('bounds hash() and verify() together', async () => {
    const inner = new GatedHasher();
    const bounded = new BoundedPasswordHasher(inner, { concurrency: 1, maxWaiting: 5 });
    const hashed = bounded.hash('x');
    const verified = bounded.verify('hashed:x', 'x');
    await settle();
    expect(inner.started).toEqual(['x']);
    inner.endOldest();
    await settle();
    inner.endOldest();
    expect(await hashed).toBe('hashed:x');
    expect(await verified).toBe(true);
    expect(inner.maxRunning).toBe(1);
  });

  it('refuses a hash beyond `maxWaiting` waiting ones with PasswordHashingBusyError, without starting it', async () => {
    const inner = new GatedHasher();
    const bounded = new BoundedPasswordHasher(inner, { concurrency: 1, maxWaiting: 2 });
    const accepted = ['a', 'b', 'c'].map((p) => bounded.verify('h', p));
    const refused = bounded.verify('h', 'd');
    await expect(refused).rejects.toBeInstanceOf(PasswordHashingBusyError);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 1 });
    for (let i = 0; i < 3; i++) {
      await settle();
      inner.endOldest();
    }
    await Promise.all(accepted);
    expect(inner.started).toEqual(['a', 'b', 'c']);
    // Once the queue has room again, hashes are accepted.
    const later = bounded.verify('hashed:e', 'e');
    await settle();
    inner.endOldest();
    expect(await later).toBe(true);
  });

  it('frees the slot of a hash that fails, and passes the failure on', async () => {
    const inner = new GatedHasher();
    const bounded = new BoundedPasswordHasher(inner, { concurrency: 1, maxWaiting: 1 });
    const failing = bounded.verify('h', 'a');
    const next = bounded.verify('hashed:b', 'b');
    await settle();
    inner.endOldest(new Error('native failure'));
    await expect(failing).rejects.toThrow('native failure');
    await settle();
    expect(inner.started).toEqual(['a', 'b']);
    inner.endOldest();
    expect(await next).toBe(true);
    expect(bounded.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses bounds that would never run a hash', () => {
    expect(() => new BoundedPasswordHasher(new GatedHasher(), { concurrency: 0, maxWaiting: 1 })).toThrow();
    expect(() => new BoundedPasswordHasher(new GatedHasher(), { concurrency: Number.NaN, maxWaiting: 1 })).toThrow();
  });
});
