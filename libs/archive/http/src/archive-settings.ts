import type { WikiRenderer } from '@rc/shared-http';

/** What the archive reads of the service's configuration, and the wiki renderer the app shares. */
export interface ArchiveSettings {
  readonly publicBaseUrl: string;
  /** Where the offline oManual archives are written and served from. */
  readonly archiveDir: string;
  /** Seconds between checks for changed content that rebuild the archive in the server (0 = never). */
  readonly archiveCheckSeconds: number;
  readonly renderer: WikiRenderer;
}

export const ARCHIVE_SETTINGS = Symbol('ArchiveSettings');
