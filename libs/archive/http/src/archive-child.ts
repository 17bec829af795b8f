import { fork } from 'node:child_process';
import type { ArchiveBuilder, BuildOptions, BuildResult } from './archive-builder.js';
import { NO_PROGRESS, type ArchiveProgress } from './archive-progress.js';
import type { ArchiveStore } from './archive-store.js';

/**
 * How a scheduled build runs in a process of its own: Node runs `entry` (the CLI) with `args`
 * (`archive:build`), the API's environment and a heap limit of its own. The API process keeps
 * serving with its own heap; what the build reads and caches dies with the child.
 */
export interface ArchiveBuildProcess {
  /** The script, e.g. the CLI's `cli.js`. */
  readonly entry: string;
  readonly args: readonly string[];
  /** Node's flags besides the heap limit (a loader when the entry is TypeScript, say). */
  readonly execArgv?: readonly string[];
  /** The child's environment: the API's configuration, with the database it actually uses. */
  readonly env: NodeJS.ProcessEnv;
  /** The child's V8 heap limit (`--max-old-space-size`, MB). */
  readonly maxOldSpaceMb: number;
}

/** A build done in a child process: what it built, its process id and its peak resident set. */
export interface ChildBuildResult extends BuildResult {
  readonly pid: number;
  readonly peakRssMb: number;
}

export interface ChildBuildOptions {
  readonly progress?: ArchiveProgress;
  /** Kills the child: its partial files are removed, the previous archive stays served. */
  readonly signal?: AbortSignal;
  /** Called once the child is started. */
  readonly onStart?: (pid: number) => void;
  /** Tests: the child stops after this many documents and waits there until it is killed. */
  readonly holdAfter?: number;
}

/** Set in the child's environment (JSON of ChildSettings): `archive:build` then reports to its parent. */
export const ARCHIVE_CHILD_ENV = 'RC_ARCHIVE_BUILD_CHILD';

interface ChildSettings {
  readonly holdAfter?: number;
}

/** What the child tells its parent over the IPC channel. */
type ChildMessage =
  | { readonly type: 'start'; readonly total: number }
  | { readonly type: 'progress'; readonly done: number }
  | { readonly type: 'built'; readonly result: BuildResult; readonly peakRssMb: number };

/** Progress messages at most this often (a message per document would cost both processes). */
const PROGRESS_EVERY_MS = 250;
/** The child's last output kept for the error of a failed build. */
const TAIL_CHARS = 4096;

/**
 * Runs one build in a child process (see ArchiveBuildProcess) and follows it over IPC: its
 * progress (documents written of the total), then its result. Aborting kills the child and removes
 * the partial files it left (named by its pid); a child that exits without a result is an error
 * carrying the end of its output.
 */
export function buildInChild(spec: ArchiveBuildProcess, store: ArchiveStore, options: ChildBuildOptions = {}): Promise<ChildBuildResult> {
  const progress = options.progress ?? NO_PROGRESS;
  const settings: ChildSettings = { holdAfter: options.holdAfter };
  return new Promise<ChildBuildResult>((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const child = fork(spec.entry, [...spec.args], {
      execArgv: [...(spec.execArgv ?? []), `--max-old-space-size=${spec.maxOldSpaceMb}`],
      env: { ...spec.env, [ARCHIVE_CHILD_ENV]: JSON.stringify(settings) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Dates (the archive's times) arrive as dates.
      serialization: 'advanced',
    });
    let tail = '';
    const keep = (chunk: Buffer) => void (tail = (tail + chunk.toString()).slice(-TAIL_CHARS));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let done = 0;
    let built: ChildBuildResult | null = null;
    const kill = () => void child.kill('SIGKILL');
    options.signal?.addEventListener('abort', kill, { once: true });
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'start') progress.start(message.total);
      else if (message.type === 'progress' && message.done > done) {
        progress.advance(message.done - done);
        done = message.done;
      } else if (message.type === 'built') built = { ...message.result, pid: child.pid!, peakRssMb: message.peakRssMb };
    });
    child.once('error', (error) => {
      options.signal?.removeEventListener('abort', kill);
      reject(error);
    });
    if (child.pid !== undefined) options.onStart?.(child.pid);
    child.once('exit', (code, signal) => {
      options.signal?.removeEventListener('abort', kill);
      if (built && code === 0) {
        progress.finish();
        return resolve(built);
      }
      const failure = options.signal?.aborted
        ? (options.signal.reason as Error)
        : new Error(`the archive build process exited with ${code ?? signal}${tail.trim() ? `: ${tail.trim()}` : ''}`);
      // What the child was writing is its own to remove, by its pid; a commit it finished stays.
      store.discardPartialsOf(child.pid!).then(
        () => reject(failure),
        () => reject(failure),
      );
    });
  });
}

/**
 * In the child (`archive:build` started by buildInChild): builds with `builder`, sending its
 * progress and its result to the parent; `null` in any other process. The child ends with its
 * parent: a parent gone (crashed, killed) takes its build with it.
 */
export function buildForParent(builder: ArchiveBuilder): Promise<BuildResult> | null {
  const raw = process.env[ARCHIVE_CHILD_ENV];
  const channel = process.send?.bind(process);
  if (raw === undefined || !channel) return null;
  const settings = JSON.parse(raw) as ChildSettings;
  process.once('disconnect', () => process.exit(1));
  const send = (message: ChildMessage) =>
    new Promise<void>((resolve, reject) => {
      channel(message, undefined, {}, (error: Error | null) => (error ? reject(error) : resolve()));
    });
  let done = 0;
  let sentAt = 0;
  const progress: ArchiveProgress = {
    start: (total) => void send({ type: 'start', total }).catch(() => undefined),
    advance: (count = 1) => {
      done += count;
      if (Date.now() - sentAt < PROGRESS_EVERY_MS) return;
      sentAt = Date.now();
      void send({ type: 'progress', done }).catch(() => undefined);
    },
    finish: () => undefined,
  };
  const options: BuildOptions = {
    progress,
    afterDocument: async (written) => {
      if (written !== settings.holdAfter) return;
      await send({ type: 'progress', done });
      // Until the parent kills this process (a timer keeps it alive meanwhile).
      await new Promise(() => setInterval(() => undefined, 60_000));
    },
  };
  return builder.build(options).then(async (result) => {
    await send({ type: 'built', result, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
    return result;
  });
}
