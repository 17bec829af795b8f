import type { WikiRenderer } from '@rc/shared-http';
import type { ArchiveBuildProcess } from './archive-child.js';

/** What the archive reads of the service's configuration, and the wiki renderer the app shares. */
export interface ArchiveSettings {
  readonly publicBaseUrl: string;
  /** Where the offline oManual archives are written and served from. */
  readonly archiveDir: string;
  readonly renderer: WikiRenderer;
  /** Incremental archives (`GET /archives/omanual?since=`) streamed at once by a process (default 2); more answer 429. */
  readonly changesConcurrency?: number;
  /** The process a scheduled build runs in (the CLI's `archive:build`, with its own heap limit). */
  readonly buildProcess: ArchiveBuildProcess;
}

export const ARCHIVE_SETTINGS = Symbol('ArchiveSettings');
