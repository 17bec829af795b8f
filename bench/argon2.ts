// The login scenario's reference: argon2id verifications per second of the bench accounts' hash
// (the API's default cost), run alone in this process with as many at once as the scenario's
// connections. A login verifies one such hash; this is the limit of its throughput.
import { verify } from '@node-rs/argon2';
import { Argon2PasswordHasher } from '@rc/identity-infra-mikro-orm';
import { BENCH_PASSWORD } from './generate.js';

/**
 * With `running`, at most that many verifications run at once (the others wait their turn), as
 * the API's BoundedPasswordHasher runs them: its own bound, measured alone.
 */
export async function argon2VerificationsPerSecond(seconds: number, concurrency: number, running = Infinity): Promise<{ perSecond: number; cpuMsPerVerification: number }> {
  const hashed = await new Argon2PasswordHasher().hash(BENCH_PASSWORD);
  await verify(hashed, BENCH_PASSWORD); // warm
  let done = 0;
  let active = 0;
  const waiting: Array<() => void> = [];
  const bounded = async (): Promise<boolean> => {
    if (active >= running) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await verify(hashed, BENCH_PASSWORD);
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        if (!(await bounded())) throw new Error('argon2 reference: the password did not verify');
        done++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  // The runner does nothing else meanwhile: its CPU (every thread: argon2 runs on libuv's) is the hashes'.
  return { perSecond: done / ((performance.now() - started) / 1000), cpuMsPerVerification: Math.round(((cpu.user + cpu.system) / 1000 / done) * 100) / 100 };
}
