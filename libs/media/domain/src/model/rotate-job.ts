import type { ImageId } from './media-ids.js';

export type RotateJobStatus = 'processing' | 'complete' | 'failed';

/** Client-chosen job ids: short, printable, no spaces (they travel in a URL path). */
export const ROTATE_JOB_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

export interface RotateJobState {
  readonly userId: number;
  readonly jobId: string;
  readonly imageId: ImageId;
  readonly degrees: 90 | 180 | 270;
  readonly status: RotateJobStatus;
  /** The image version the rotation produced, once applied: running the job again does not turn it twice. */
  readonly appliedVersion: number | null;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
}

/** One rotation a user asked for, run in the background (reference: 202 `{jobID}`, then `GET …/rotate/{jobID}`). */
export class RotateJob {
  private constructor(private current: RotateJobState) {}

  static restore(state: RotateJobState): RotateJob {
    return new RotateJob({ ...state });
  }

  static request(userId: number, jobId: string, imageId: ImageId, degrees: 90 | 180 | 270, now: Date): RotateJob {
    return new RotateJob({ userId, jobId, imageId, degrees, status: 'processing', appliedVersion: null, createdAt: now, finishedAt: null });
  }

  get state(): RotateJobState {
    return this.current;
  }

  get isApplied(): boolean {
    return this.current.appliedVersion !== null;
  }

  applied(version: number): void {
    this.current = { ...this.current, appliedVersion: version };
  }

  finish(status: 'complete' | 'failed', now: Date): void {
    this.current = { ...this.current, status, finishedAt: now };
  }
}
