import { GUIDE_BODIES_WRITE_SQL, GUIDE_BODY_READ_SQL, PUBLIC_GUIDE_FOR_READER_SQL, PUBLIC_GUIDE_VERSION_AND_BODY_SQL, PUBLIC_GUIDE_WRITTEN_SQL } from '@rc/guides-infra-mikro-orm';
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

/**
 * `ReaderVersionWithBody` as a write's answer reads it: with what the version was made of besides
 * the prerequisites, to compare with the guide the writer holds.
 */
export interface WrittenVersionWithBody extends ReaderVersionWithBody {
  readonly revisionid: number;
  /** The guide's discussion stamp (0: never commented on). */
  readonly discussionSeq: number;
  /** `null`: the guide has no statistics row. */
  readonly favorites: number | null;
  readonly completions: number | null;
  readonly langids: readonly string[];
}

/** The read model of public guide bodies (`guide_bodies`): templates by guide, variant, version and format. */
export interface GuideBodyStore {
  /** The guide's current version and the stored body of that version, in one statement (`null`: the guide is not public). */
  current(guideId: number, inline: boolean): Promise<VersionWithBody | null>;
  /** `current` for a signed-in reader, in the same one statement (`null`: the guide is not public). */
  currentFor(guideId: number, inline: boolean, userId: number): Promise<ReaderVersionWithBody | null>;
  /** `currentFor` with what the version was made of (see WrittenVersionWithBody), for a write's answer. */
  written(guideId: number, inline: boolean, userId: number): Promise<WrittenVersionWithBody | null>;
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

interface ReaderRow extends VersionRow {
  author_id: number;
  collaborator_ids: number[];
  team_ids: number[];
  marks: string[];
  hidden_prerequisites: number;
}

interface WrittenRow extends ReaderRow {
  revisionid: number;
  discussion_seq: string;
  favorites_count: number | null;
  completions_count: number | null;
  langids: string[];
}

function readerVersionWithBody(row: ReaderRow): ReaderVersionWithBody {
  return {
    ...versionWithBody(row),
    editors: { authorId: row.author_id, userIds: row.collaborator_ids, teamIds: row.team_ids },
    favorited: row.marks.includes('favorite'),
    completed: row.marks.includes('completion'),
    hiddenPrerequisites: row.hidden_prerequisites,
  };
}

/** `guide_bodies` through a plain `pg` pool: prepared statements. */
export class PgGuideBodyStore implements GuideBodyStore {
  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    /** See guideBodyFormat. */
    readonly format: string,
  ) {}

  async current(guideId: number, inline: boolean): Promise<VersionWithBody | null> {
    const { rows } = await this.pool.query<VersionRow>({
      name: 'rc-guide-version-body',
      text: PUBLIC_GUIDE_VERSION_AND_BODY_SQL,
      values: [guideId, inline, this.format],
    });
    return rows[0] ? versionWithBody(rows[0]) : null;
  }

  async currentFor(guideId: number, inline: boolean, userId: number): Promise<ReaderVersionWithBody | null> {
    const row = await this.readerRow<ReaderRow>('rc-guide-version-body-reader', PUBLIC_GUIDE_FOR_READER_SQL, guideId, inline, userId);
    return row && readerVersionWithBody(row);
  }

  async written(guideId: number, inline: boolean, userId: number): Promise<WrittenVersionWithBody | null> {
    const row = await this.readerRow<WrittenRow>('rc-guide-version-body-written', PUBLIC_GUIDE_WRITTEN_SQL, guideId, inline, userId);
    if (!row) return null;
    return {
      ...readerVersionWithBody(row),
      revisionid: row.revisionid,
      discussionSeq: Number(row.discussion_seq),
      favorites: row.favorites_count,
      completions: row.completions_count,
      langids: row.langids,
    };
  }

  private async readerRow<R extends ReaderRow>(name: string, text: string, guideId: number, inline: boolean, userId: number): Promise<R | null> {
    const { rows } = await this.pool.query<R>({ name, text, values: [guideId, inline, this.format, userId] });
    return rows[0] ?? null;
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
