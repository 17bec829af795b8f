/** Limits on what one user stores and how fast they upload. */
export interface AllowanceLimits {
  /** Uploads a user may start per window; 0: no limit. */
  readonly uploadsPerWindow: number;
  readonly windowSeconds: number;
  /** Bytes a user's library may hold; 0: no quota. */
  readonly quotaBytes: number;
}

export type SlotDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/**
 * Counters shared by every instance of the service (the database holds them), so limits hold
 * however many instances take uploads. Each method is one atomic step.
 */
export abstract class UploadAllowance {
  /** Counts an upload in the user's current window, unless the window's uploads are used up. */
  abstract takeUploadSlot(userId: number, now: Date, limits: AllowanceLimits): Promise<SlotDecision>;
  /** Adds bytes to the user's stored total unless the total would pass the quota (`false`). */
  abstract reserveBytes(userId: number, bytes: number, limits: AllowanceLimits): Promise<boolean>;
  /** Takes bytes off the user's stored total (a deleted or failed upload). */
  abstract releaseBytes(userId: number, bytes: number): Promise<void>;
  abstract storedBytes(userId: number): Promise<number>;
}
