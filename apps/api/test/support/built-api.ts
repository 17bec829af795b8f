import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The repository's root, where `npm start` runs. */
export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

const LOCK = `${ROOT}node_modules/.cache/rc-api-build.lock`;

/**
 * Builds the API as `npm start` does (`tsc -b`; Nest's decorator metadata needs the compiled code),
 * one test file at a time: two builds writing the same files at once could let a process start on a
 * half-written one. Once built, the build inside `npm start` finds nothing to do.
 */
export async function buildApi(): Promise<void> {
  await lock();
  try {
    await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'apps/api/tsconfig.app.json'], { cwd: ROOT });
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}

async function lock(): Promise<void> {
  for (const until = Date.now() + 300_000; ; ) {
    try {
      await mkdir(dirname(LOCK), { recursive: true });
      await mkdir(LOCK);
      await writeFile(`${LOCK}/pid`, String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // A lock left by a process that died while building is taken over.
    const holder = Number(await readFile(`${LOCK}/pid`, 'utf8').catch(() => 'NaN'));
    if (Number.isInteger(holder) && !isAlive(holder)) await rm(LOCK, { recursive: true, force: true });
    if (Date.now() > until) throw new Error(`${LOCK} is still held by process ${holder}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
