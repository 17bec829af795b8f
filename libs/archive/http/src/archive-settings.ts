import type { WikiRenderer } from '@rc/shared-http';

/** What the archive reads of the service's configuration, and the wiki renderer the app shares. */
export interface ArchiveSettings {
  readonly publicBaseUrl: string;
  /** Where the offline oManual archives are written and served from. */
  readonly archiveDir: string;
  readonly renderer: WikiRenderer;
}

export const ARCHIVE_SETTINGS = Symbol('ArchiveSettings');
