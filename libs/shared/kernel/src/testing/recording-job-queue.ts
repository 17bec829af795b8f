import { JobQueue, type JobRequest } from '../job-queue.js';

/** For domain unit tests: jobs are kept in order (deduplicated by key while pending) until taken. */
export class RecordingJobQueue extends JobQueue {
  readonly pending: JobRequest[] = [];

  async enqueue(job: JobRequest): Promise<boolean> {
    if (job.dedupeKey !== undefined && this.pending.some((p) => p.name === job.name && p.dedupeKey === job.dedupeKey)) return false;
    this.pending.push(job);
    return true;
  }

  /** Removes and answers the pending jobs (of one name when given). */
  take(name?: string): JobRequest[] {
    const taken = this.pending.filter((j) => name === undefined || j.name === name);
    for (const job of taken) this.pending.splice(this.pending.indexOf(job), 1);
    return taken;
  }
}
