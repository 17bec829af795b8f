import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** The last lines it printed (for error messages). */
  output(): string;
  /** Bytes it printed so far (a busy log costs the server CPU). */
  outputBytes(): number;
  stop(): Promise<void>;
}

/** Starts a Node process; its output is kept (last 64 KiB) and shown only when something fails. */
export function startNode(args: readonly string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  let bytes = 0;
  const keep = (chunk: Buffer) => {
    bytes += chunk.length;
    tail = (tail + chunk.toString()).slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  return {
    process: child,
    pid: child.pid!,
    output: () => tail,
    outputBytes: () => bytes,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the port a child announces with a `ready <port>` line. */
export function announcedPort(child: Child, timeoutMs = 30_000): Promise<number> {
  return new Promise((ok, fail) => {
    let buffer = '';
    const timer = setTimeout(() => fail(new Error(`no ready line within ${timeoutMs} ms:\n${child.output()}`)), timeoutMs);
    child.process.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /ready (\d+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        ok(Number(match[1]));
      }
    });
    child.process.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code} before it was ready:\n${child.output()}`));
    });
  });
}

/** Polls a URL until it answers 200; resolves with the milliseconds it took. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.process.exitCode !== null) throw new Error(`the process exited with ${child.process.exitCode}:\n${child.output()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${child.output()}`);
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The process and all its descendants (a cluster's workers), from /proc. */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      const tasks = readFileSync(`/proc/${out[i]}/task/${out[i]}/children`, 'utf8').trim();
      if (tasks) out.push(...tasks.split(/\s+/).map(Number));
    } catch {
      // gone, or no /proc
    }
  }
  return out;
}

/** Whether a process is an offline archive build (the API's child running `cli.js archive:build`). */
export function isArchiveBuild(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('archive:build');
  } catch {
    return false;
  }
}

export interface RssPeak {
  /** Largest resident set of any one process of the tree but archive builds (MB): the API's own. */
  readonly maxProcessMb: number;
  /** Largest sum over the tree but archive builds at one sample (MB). */
  readonly maxTotalMb: number;
  /** Largest resident set of an archive build's process (MB; 0 when none ran meanwhile). */
  readonly archiveBuildMb: number;
  readonly processes: number;
}

/**
 * Samples the resident set of a process tree every `everyMs` until stopped. The API's archive
 * builds run in child processes of their own: their figure is kept apart, so the API's is its own.
 */
export class RssSampler {
  private maxProcessKb = 0;
  private maxTotalKb = 0;
  private archiveBuildKb = 0;
  private processes = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 200,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  private sample(): void {
    const pids = processTree(this.pid);
    let total = 0;
    let counted = 0;
    for (const pid of pids) {
      const kb = statusKb(pid, 'VmRSS');
      if (pid !== this.pid && isArchiveBuild(pid)) {
        this.archiveBuildKb = Math.max(this.archiveBuildKb, kb);
        continue;
      }
      total += kb;
      counted++;
      this.maxProcessKb = Math.max(this.maxProcessKb, kb);
    }
    this.maxTotalKb = Math.max(this.maxTotalKb, total);
    this.processes = Math.max(this.processes, counted);
  }

  stop(): RssPeak {
    clearInterval(this.timer);
    this.sample();
    const mb = (kb: number) => Math.round(kb / 1024);
    return { maxProcessMb: mb(this.maxProcessKb), maxTotalMb: mb(this.maxTotalKb), archiveBuildMb: mb(this.archiveBuildKb), processes: this.processes };
  }
}

/**
 * The kernel's own high-water mark of the resident set (MB): the largest of the process and its
 * descendants but archive builds (a build's child has ended by then, or is not the API's memory).
 */
export function highWaterMb(pid: number): number {
  return Math.round(Math.max(...processTree(pid).filter((p) => p === pid || !isArchiveBuild(p)).map((p) => statusKb(p, 'VmHWM'))) / 1024);
}

/** The process and its descendants but archive builds (a build's CPU is not a request's). */
const serving = (root: number): number[] => processTree(root).filter((pid) => pid === root || !isArchiveBuild(pid));

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, every thread) a process has used so far, in ms; 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU time used by a set of processes between `start` and `stop`: a process tree (the API and its
 * workers or children) and the database server's backends that `backends` lists at each end (a
 * backend that appears counts from 0). CPU time, unlike throughput, does not depend on what else
 * the machine runs, so it gives the cost of a request on a shared machine.
 */
export class CpuMeter {
  private readonly tree: Map<number, number>;
  private readonly db = new Map<number, number>();

  private constructor(
    private readonly root: number,
    private readonly backends: () => Promise<number[]>,
  ) {
    this.tree = new Map(serving(root).map((pid) => [pid, cpuMs(pid)]));
  }

  static async start(root: number, backends: () => Promise<number[]>): Promise<CpuMeter> {
    const meter = new CpuMeter(root, backends);
    for (const pid of await backends()) meter.db.set(pid, cpuMs(pid));
    return meter;
  }

  /** CPU ms used since the start: by the process tree, and by the database backends. */
  async stop(): Promise<{ processMs: number; databaseMs: number }> {
    let processMs = 0;
    for (const pid of new Set([...this.tree.keys(), ...serving(this.root)])) processMs += Math.max(0, cpuMs(pid) - (this.tree.get(pid) ?? 0));
    let databaseMs = 0;
    for (const pid of await this.backends()) databaseMs += Math.max(0, cpuMs(pid) - (this.db.get(pid) ?? 0));
    return { processMs, databaseMs };
  }
}
