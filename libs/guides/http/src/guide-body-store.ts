import { GUIDE_BODIES_WRITE_SQL, GUIDE_BODY_READ_SQL, PUBLIC_GUIDE_FOR_READER_SQL, PUBLIC_GUIDE_VERSION_AND_BODY_SQL } from '@rc/guides-infra-mikro-orm';
import type { GuideEditors } from '@rc/guides-domain';
import type pg from 'pg';
import type { BodyTemplate } from './guide-body-template.js';

/** A body of the read model: a guide's template for one variant and version. */
export interface StoredBody {
  readonly guideId: number;
  readonly inline: boolean;
  readonly version: string;
  readonly body: BodyTemplate;
}

/** A public guide's version (see GuideVersionRow) and its stored body of that version, if any. */
export interface VersionWithBody {
  readonly version: string;
  readonly prerequisites: readonly number[];
  readonly body: BodyTemplate | null;
  /** The guide's stored view count. */
  readonly views?: number | null;
}

/** A public guide's version and stored body as a signed-in reader reads it: with who may edit it and the reader's marks. */
export interface ReaderVersionWithBody extends VersionWithBody {
  readonly editors: GuideEditors;
  readonly favorited: boolean;
  readonly completed: boolean;
  /** How many of its prerequisites are not public (the anonymous body leaves them out). */
  readonly hiddenPrerequisites: number;
}

/** The read model of public guide bodies (`guide_bodies`): templates by guide, variant, version and format. */
export interface GuideBodyStore {
  /**
   * The guide's current version and the stored body of that version, in one statement (`null`: the
   * guide is not public). `held`: a version whose body the caller holds: when it is the current
   * one, its body is not read (`body` is null).
   */
  current(guideId: number, inline: boolean, held?: string): Promise<VersionWithBody | null>;
  /** `current` for a signed-in reader, in the same one statement (`null`: the guide is not public). */
  currentFor(guideId: number, inline: boolean, userId: number, held?: string): Promise<ReaderVersionWithBody | null>;
  /** The stored template when it was built for this version (and the store's format), else `null`. */
  read(guideId: number, inline: boolean, version: string): Promise<BodyTemplate | null>;
  /** Stores bodies in one statement (each replaces its guide's of the same variant). */
  write(bodies: readonly StoredBody[]): Promise<void>;
}

interface VersionRow {
  version: string;
  prerequisites: number[];
  marker: string | null;
  template: string | null;
  views: string | null;
}

function versionWithBody(row: VersionRow): VersionWithBody {
  const body = row.marker !== null && row.template !== null ? { marker: row.marker, template: row.template } : null;
  return { version: row.version, prerequisites: row.prerequisites, body, views: row.views === null ? null : Number(row.views) };
}

/** `guide_bodies` through a plain `pg` pool: prepared statements. */
export class PgGuideBodyStore implements GuideBodyStore {
  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    /** See guideBodyFormat. */
    readonly format: string,
  ) {}

  async current(guideId: number, inline: boolean, held = ''): Promise<VersionWithBody | null> {
    const { rows } = await this.pool.query<VersionRow>({
      name: 'rc-guide-version-body',
      text: PUBLIC_GUIDE_VERSION_AND_BODY_SQL,
      values: [guideId, inline, this.format, held],
    });
    return rows[0] ? versionWithBody(rows[0]) : null;
  }

  async currentFor(guideId: number, inline: boolean, userId: number, held = ''): Promise<ReaderVersionWithBody | null> {
    const { rows } = await this.pool.query<VersionRow & { author_id: number; collaborator_ids: number[]; team_ids: number[]; marks: string[]; hidden_prerequisites: number }>({
      name: 'rc-guide-version-body-reader',
      text: PUBLIC_GUIDE_FOR_READER_SQL,
      values: [guideId, inline, this.format, held, userId],
    });
    const row = rows[0];
    if (!row) return null;
    return {
      ...versionWithBody(row),
      editors: { authorId: row.author_id, userIds: row.collaborator_ids, teamIds: row.team_ids },
      favorited: row.marks.includes('favorite'),
      completed: row.marks.includes('completion'),
      hiddenPrerequisites: row.hidden_prerequisites,
    };
  }

  async read(guideId: number, inline: boolean, version: string): Promise<BodyTemplate | null> {
    const { rows } = await this.pool.query<BodyTemplate>({ name: 'rc-guide-body-read', text: GUIDE_BODY_READ_SQL, values: [guideId, inline, version, this.format] });
    return rows[0] ?? null;
  }

  async write(bodies: readonly StoredBody[]): Promise<void> {
    if (!bodies.length) return;
    const column = <T>(pick: (b: StoredBody) => T) => bodies.map(pick);
    await this.pool.query({
      name: 'rc-guide-bodies-write',
      text: GUIDE_BODIES_WRITE_SQL,
      values: [column((b) => b.guideId), column((b) => b.inline), column((b) => b.version), column(() => this.format), column((b) => b.body.marker), column((b) => b.body.template)],
    });
  }
}
