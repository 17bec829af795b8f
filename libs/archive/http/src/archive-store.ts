import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What is known of a built archive (its file, and the sidecar written with it). */
export interface ArchiveInfo {
  /** File name, e.g. `omanual-20261122T101500123Z.zip`. */
  readonly name: string;
  readonly path: string;
  readonly size: number;
  /** When the build finished (also the file's modification time). */
  readonly builtAt: Date;
  /** A strong validator: the SHA-256 of the file, computed while it was written. */
  readonly etag: string;
  /** The content version the archive was built from (see ArchiveSource.contentVersion). */
  readonly contentVersion: string | null;
  readonly guides: number | null;
  readonly categories: number | null;
  /** When the build began reading the content (archives built before this was recorded: null). */
  readonly startedAt: Date | null;
}

interface Sidecar {
  readonly sha256: string;
  readonly contentVersion: string;
  readonly guides: number;
  readonly categories: number;
  readonly builtAt: string;
  readonly startedAt?: string;
}

const ARCHIVE_NAME = /^omanual-(\d{8}T\d{9}Z)\.zip$/;
const PARTIAL = /^\.omanual-.*\.partial$/;
/** A partial file untouched this long belongs to a build that died (a live build writes continuously). */
const STALE_PARTIAL_MS = 6 * 3600 * 1000;

export const KEEP_ARCHIVES = 3;

const stamp = (date: Date) => date.toISOString().replace(/[-:.]/g, '');

/**
 * The archives on disk, in one folder. A build writes to a hidden `.partial` file and renames it
 * into place only once it is complete and flushed to disk: a name matching `omanual-*.zip` is
 * always a whole archive, and a crash mid-build leaves at most a partial file that is never listed
 * or served (and is removed by a later build). The newest few archives are kept, so a download
 * in progress (resumed with `Range`) can finish after a rebuild.
 */
export class ArchiveStore {
  constructor(
    readonly dir: string,
    private readonly keep = KEEP_ARCHIVES,
  ) {}

  /** The archives, newest first. */
  async list(): Promise<ArchiveInfo[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const archives = await Promise.all(names.filter((n) => ARCHIVE_NAME.test(n)).map((n) => this.info(n)));
    return archives.filter((a): a is ArchiveInfo => a !== null).sort((a, b) => (a.name < b.name ? 1 : -1));
  }

  async latest(): Promise<ArchiveInfo | null> {
    return (await this.list())[0] ?? null;
  }

  /** An archive by file name; `null` for a name that is not an archive's. */
  async find(name: string): Promise<ArchiveInfo | null> {
    return ARCHIVE_NAME.test(name) ? this.info(name) : null;
  }

  /** A new partial file to write a build into. */
  async begin(): Promise<PendingArchive> {
    await mkdir(this.dir, { recursive: true });
    await this.removeStalePartials();
    const path = join(this.dir, `.omanual-${process.pid}-${randomBytes(6).toString('hex')}.partial`);
    return new PendingArchive(this, path);
  }

  /**
   * Side files (the manifest being assembled, the media list) for an incremental archive streamed
   * to a client: named as a build's partial files, so what a crash leaves is removed by a later build.
   */
  async scratch(): Promise<PendingArchive> {
    await mkdir(this.dir, { recursive: true });
    return new PendingArchive(this, join(this.dir, `.omanual-changes-${process.pid}-${randomBytes(6).toString('hex')}.partial`));
  }

  /** Renames a complete, flushed build into place; then drops the oldest archives beyond the kept number. */
  async commit(partial: string, sidecar: Omit<Sidecar, 'builtAt'>, builtAt: Date): Promise<ArchiveInfo> {
    let at = builtAt;
    while (await this.exists(this.pathOf(`omanual-${stamp(at)}.zip`))) at = new Date(at.getTime() + 1);
    const name = `omanual-${stamp(at)}.zip`;
    await fsync(partial);
    // The sidecar first: a sidecar without its archive is ignored, an archive is complete when its name exists.
    const sidecarTemp = `${partial}.json`;
    await writeFile(sidecarTemp, JSON.stringify({ ...sidecar, builtAt: at.toISOString() } satisfies Sidecar));
    await fsync(sidecarTemp);
    await rename(sidecarTemp, this.pathOf(`${name}.json`));
    await rename(partial, this.pathOf(name));
    await fsync(this.dir);
    await this.prune();
    const info = await this.info(name);
    if (!info) throw new Error(`archive ${name} vanished after it was written`);
    return info;
  }

  pathOf(name: string): string {
    return join(this.dir, name);
  }

  private async info(name: string): Promise<ArchiveInfo | null> {
    const path = this.pathOf(name);
    let size: number;
    let mtime: Date;
    try {
      ({ size, mtime } = await stat(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    let sidecar: Partial<Sidecar> = {};
    try {
      sidecar = JSON.parse(await readFile(`${path}.json`, 'utf8')) as Sidecar;
    } catch {
      // An archive without its sidecar (copied in by hand) is still served, with a weaker validator.
    }
    return {
      name,
      path,
      size,
      builtAt: sidecar.builtAt ? new Date(sidecar.builtAt) : mtime,
      etag: sidecar.sha256 ? `"sha256-${sidecar.sha256}"` : `"${size.toString(16)}-${mtime.getTime().toString(16)}"`,
      contentVersion: sidecar.contentVersion ?? null,
      guides: sidecar.guides ?? null,
      categories: sidecar.categories ?? null,
      startedAt: sidecar.startedAt ? new Date(sidecar.startedAt) : null,
    };
  }

  private async prune(): Promise<void> {
    const archives = await this.list();
    for (const old of archives.slice(this.keep)) {
      await rm(old.path, { force: true });
      await rm(`${old.path}.json`, { force: true });
    }
  }

  /** Removes the partial files of a build process that ended without committing (its pid names them). */
  async discardPartialsOf(pid: number): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    const prefix = `.omanual-${pid}-`;
    for (const name of names) if (name.startsWith(prefix) && name.includes('.partial')) await rm(this.pathOf(name), { force: true });
  }

  private async removeStalePartials(): Promise<void> {
    const now = Date.now();
    for (const name of await readdir(this.dir)) {
      if (!PARTIAL.test(name) && !/^\.omanual-.*\.partial\./.test(name)) continue;
      const path = this.pathOf(name);
      try {
        if (now - (await stat(path)).mtimeMs > STALE_PARTIAL_MS) await rm(path, { force: true });
      } catch {
        // Gone already.
      }
    }
  }

  private async exists(path: string): Promise<boolean> {
    try {
      await stat(path);
      return true;
    } catch {
      return false;
    }
  }
}

/** A build being written: its partial file, and the side file the manifest is assembled in. */
export class PendingArchive {
  constructor(
    private readonly store: ArchiveStore,
    readonly path: string,
  ) {}

  get manifestPath(): string {
    return `${this.path}.manifest`;
  }

  /** The side file listing the media files packed, for the manifest. */
  get mediaListPath(): string {
    return `${this.path}.media`;
  }

  /** The side file the ZIP's central directory is gathered in (ArchiveZip). */
  get directoryPath(): string {
    return `${this.path}.directory`;
  }

  commit(sidecar: Omit<Sidecar, 'builtAt'>, builtAt: Date): Promise<ArchiveInfo> {
    return this.store.commit(this.path, sidecar, builtAt);
  }

  /** Removes what the build left (after a failure, or the manifest's side file after success). */
  async discard(): Promise<void> {
    await rm(this.path, { force: true });
    await rm(this.manifestPath, { force: true });
    await rm(this.mediaListPath, { force: true });
    await rm(this.directoryPath, { force: true });
    await rm(`${this.path}.json`, { force: true });
  }
}

async function fsync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
