import type { AllowanceLimits } from './ports/upload-allowance.js';

/** Limits of uploads, chosen by the operator (the application reads them from `MEDIA_*` variables). */
export interface MediaSettings {
  /** Largest image upload, in bytes (reference: 80 MB). */
  readonly maxUploadBytes: number;
  /** Largest video upload, in bytes. */
  readonly maxVideoBytes: number;
  /** Largest document (PDF) upload, in bytes. */
  readonly maxDocumentBytes: number;
  /** Most pixels an image may declare: more is refused before anything is decoded (decompression bombs). */
  readonly maxPixels: number;
  /** Fewest pixels on a side (reference: 50×50). */
  readonly minSide: number;
  readonly allowance: AllowanceLimits;
}

export const DEFAULT_MEDIA_SETTINGS: MediaSettings = {
  maxUploadBytes: 80 * 1024 * 1024,
  maxVideoBytes: 512 * 1024 * 1024,
  maxDocumentBytes: 80 * 1024 * 1024,
  maxPixels: 100_000_000,
  minSide: 50,
  allowance: { uploadsPerWindow: 120, windowSeconds: 3600, quotaBytes: 5 * 1024 * 1024 * 1024 },
};

/** Bytes the probe gets in memory: enough for the header of every accepted format in practice. */
export const PROBE_HEAD_BYTES = 64 * 1024;
