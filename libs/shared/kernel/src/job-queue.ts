/** A value a job carries: plain JSON, so any process of any version can read it back. */
export type JobPayload = { readonly [key: string]: string | number | boolean | null };

export interface JobRequest {
  /** The job's kind, such as `media.image-renditions`: a worker registered for it runs it. */
  readonly name: string;
  readonly payload: JobPayload;
  /**
   * While a job with this key (and name) is waiting, being retried or running, another request
   * with the same key adds nothing. Absent: every request is a new job.
   */
  readonly dedupeKey?: string;
  /** Run no earlier than this many seconds from now. */
  readonly delaySeconds?: number;
}

/**
 * Background work that outlives the request and the process: a job is stored before `enqueue`
 * resolves, any instance may run it, and one whose run fails or dies is run again.
 * Handlers must therefore be idempotent.
 */
export abstract class JobQueue {
  /** Stores the job; `false` when an equal dedupe key made it a no-op. */
  abstract enqueue(job: JobRequest): Promise<boolean>;
}

/** Which run of a job this is: a handler that fails on its final attempt should record the failure. */
export interface JobRun {
  /** 1 for the first run, 2 for the first retry... */
  readonly attempt: number;
  /** No retry follows if this run fails. */
  readonly finalAttempt: boolean;
}

/** Runs one job. Throwing makes the queue retry it (with backoff) until its attempts are used up. */
export type JobHandler = (payload: JobPayload, run: JobRun) => Promise<void>;
