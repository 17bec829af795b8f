import type { EntityManager } from '@mikro-orm/postgresql';
import { intArrayLiteral, PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';
import type { Page } from '@rc/shared-kernel';
import {
  Embed,
  Image,
  MediaDocument,
  MediaRepository,
  RENDITION_NAMES,
  RotateJob,
  Video,
  type DocumentId,
  type EmbedId,
  type EmbedType,
  type ExifData,
  type ImageFormat,
  type ImageId,
  type ImageStatus,
  type LibraryFilter,
  type MediaRef,
  type OutputFormat,
  type RenditionInfo,
  type RenditionName,
  type Rotation,
  type RotateJobStatus,
  type ShownImage,
  type VideoEncoding,
  type VideoId,
  type VideoPosterStatus,
  type CropRect,
} from '@rc/media-domain';
import { intArray, toDate, toDateOrNull, toNumber } from './sql.js';

interface ImageRow {
  id: number;
  guid: string;
  owner_id: number;
  src_id: number | null;
  filename: string;
  format: string;
  has_alpha: boolean;
  byte_size: string | number;
  source_width: number;
  source_height: number;
  orientation: number;
  crop: CropRect | null;
  rotation: number;
  width: number;
  height: number;
  version: number;
  exif: ExifData;
  status: string;
  created_at: Date | string;
  deleted_at: Date | string | null;
  purged_at: Date | string | null;
}

interface SizeRow {
  image_id: number;
  size: string;
  width: number;
  height: number;
  format: string;
  byte_size: string | number;
}

const IMAGE_COLUMNS =
  'id, guid, owner_id, src_id, filename, format, has_alpha, byte_size, source_width, source_height, orientation, crop, rotation, width, height, version, exif, status, created_at, deleted_at, purged_at';

const whereRef = (ref: MediaRef): [string, unknown] => ('id' in ref ? ['id = ?', ref.id] : ['guid = ?', ref.guid]);

/**
 * Media rows in PostgreSQL, with SQL: an image and its sizes (of its current version) load and
 * save together; writes that read first run inside a unit of work on rows locked `FOR UPDATE`.
 */
/** One statement (content shows images on hot paths): the sizes of each image's current version alongside it. */
const IMAGES_WITH_SIZES = new PreparedStatement(
  `SELECT ${IMAGE_COLUMNS},
     (SELECT json_agg(json_build_object('image_id', s.image_id, 'size', s.size, 'width', s.width, 'height', s.height, 'format', s.format, 'byte_size', s.byte_size))
        FROM media_image_sizes s WHERE s.image_id = i.id AND s.version = i.version) AS sizes
   FROM media_images i WHERE i.id = ANY(ARRAY(SELECT jsonb_array_elements_text(?::jsonb)::int)) ORDER BY i.id`,
);

/**
 * What content shows of images (their Image objects), on every first read of a guide, page, list or
 * search answer: the names of the sizes made of each one's current version, nothing else, from the
 * image's row alone (`shown_sizes`, written with the sizes by saveImage).
 */
const SHOWN_IMAGES = new PreparedStatement(`SELECT i.id, i.guid, i.version, i.shown_sizes AS sizes FROM media_images i WHERE i.id = ANY(?::int[]) AND i.purged_at IS NULL`);

export class MikroOrmMediaRepository extends MediaRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  private async next(sequence: string): Promise<number> {
    const [row] = await this.em.execute<{ id: number }[]>(`SELECT nextval('${sequence}')::int AS id`);
    return row!.id;
  }

  async nextImageId(): Promise<ImageId> {
    return (await this.next('media_images_id_seq')) as ImageId;
  }
  async nextVideoId(): Promise<VideoId> {
    return (await this.next('media_videos_id_seq')) as VideoId;
  }
  async nextEmbedId(): Promise<EmbedId> {
    return (await this.next('media_embeds_id_seq')) as EmbedId;
  }
  async nextDocumentId(): Promise<DocumentId> {
    return (await this.next('media_documents_id_seq')) as DocumentId;
  }

  async findImage(ref: MediaRef): Promise<Image | null> {
    const [where, param] = whereRef(ref);
    const rows = await this.em.execute<ImageRow[]>(`SELECT ${IMAGE_COLUMNS} FROM media_images WHERE ${where}`, [param]);
    return (await this.withSizes(rows))[0] ?? null;
  }

  async findImageForUpdate(id: ImageId): Promise<Image | null> {
    const rows = await this.em.execute<ImageRow[]>(`SELECT ${IMAGE_COLUMNS} FROM media_images WHERE id = ? FOR UPDATE`, [id]);
    return (await this.withSizes(rows))[0] ?? null;
  }

  async findImages(ids: readonly ImageId[]): Promise<Image[]> {
    if (!ids.length) return [];
    const rows = await queryPrepared<ImageRow & { sizes: SizeRow[] | null }>(this.em, IMAGES_WITH_SIZES, [intArray(ids).param]);
    return this.restore(rows, rows.flatMap((r) => r.sizes ?? []));
  }

  async findShownImages(ids: readonly ImageId[]): Promise<ShownImage[]> {
    if (!ids.length) return [];
    const rows = await queryPrepared<{ id: number; guid: string; version: number; sizes: string[] }>(this.em, SHOWN_IMAGES, [intArrayLiteral(ids)]);
    // In the size table's order, as Image.shown lists them.
    return rows.map((r) => ({ id: r.id as ImageId, guid: r.guid, version: r.version, sizes: RENDITION_NAMES.filter((name) => r.sizes.includes(name)) }));
  }

  async findOwnedImages(ownerId: number, ids: readonly ImageId[]): Promise<Image[]> {
    if (!ids.length) return [];
    const list = intArray(ids);
    const rows = await this.em.execute<ImageRow[]>(
      `SELECT ${IMAGE_COLUMNS} FROM media_images WHERE owner_id = ? AND id = ANY(${list.sql}) AND deleted_at IS NULL ORDER BY id`,
      [ownerId, list.param],
    );
    return this.withSizes(rows);
  }

  /** The image's row, and its sizes (those of its current version) in place of those it had, named on the row too (`shown_sizes`, in name order). */
  async saveImage(image: Image): Promise<void> {
    const s = image.state;
    const sizes = Object.entries(s.renditions) as [RenditionName, RenditionInfo][];
    await this.em.execute(
      `INSERT INTO media_images (${IMAGE_COLUMNS}, ratio, shown_sizes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ARRAY(SELECT jsonb_array_elements_text(?::jsonb))::varchar(10)[])
       ON CONFLICT (id) DO UPDATE SET crop = excluded.crop, rotation = excluded.rotation, width = excluded.width, height = excluded.height,
         ratio = excluded.ratio, version = excluded.version, status = excluded.status, deleted_at = excluded.deleted_at, purged_at = excluded.purged_at,
         shown_sizes = excluded.shown_sizes`,
      [
        s.id,
        s.guid,
        s.ownerId,
        s.srcId,
        s.filename,
        s.format,
        s.hasAlpha,
        s.byteSize,
        s.sourceWidth,
        s.sourceHeight,
        s.orientation,
        s.crop ? JSON.stringify(s.crop) : null,
        s.rotation,
        s.width,
        s.height,
        s.version,
        JSON.stringify(s.exif),
        s.status,
        s.createdAt,
        s.deletedAt,
        s.purgedAt,
        image.ratio,
        JSON.stringify(sizes.map(([size]) => size).sort()),
      ],
    );
    await this.em.execute('DELETE FROM media_image_sizes WHERE image_id = ?', [s.id]);
    if (sizes.length) {
      await this.em.execute(
        `INSERT INTO media_image_sizes (image_id, size, version, width, height, format, byte_size)
         SELECT ?, x.size, ?, x.width, x.height, x.format, x.bytes FROM jsonb_to_recordset(?::jsonb) AS x(size text, width int, height int, format text, bytes bigint)`,
        [s.id, s.version, JSON.stringify(sizes.map(([size, info]) => ({ size, ...info })))],
      );
    }
  }

  async listLibrary(ownerId: number, filter: LibraryFilter, page: Page): Promise<Image[]> {
    const rows = await this.em.execute<ImageRow[]>(
      `SELECT ${IMAGE_COLUMNS} FROM media_images
       WHERE owner_id = ? AND deleted_at IS NULL AND (?::text = 'ALL' OR ratio = ?) AND width >= ? AND height >= ?
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [ownerId, filter.ratio, filter.ratio, filter.minWidth, filter.minHeight, page.limit, page.offset],
    );
    return this.withSizes(rows);
  }

  async imagesProcessingSince(before: Date, limit: number): Promise<Image[]> {
    const rows = await this.em.execute<ImageRow[]>(
      `SELECT ${IMAGE_COLUMNS} FROM media_images WHERE status = 'processing' AND purged_at IS NULL AND created_at < ? ORDER BY created_at LIMIT ?`,
      [before, limit],
    );
    return this.withSizes(rows);
  }

  /** Images with the sizes of their current versions: one query for all of them. */
  private async withSizes(rows: ImageRow[]): Promise<Image[]> {
    if (!rows.length) return [];
    const list = intArray(rows.map((r) => r.id));
    const sizes = await this.em.execute<SizeRow[]>(
      `SELECT s.image_id, s.size, s.width, s.height, s.format, s.byte_size FROM media_image_sizes s JOIN media_images i ON i.id = s.image_id AND i.version = s.version
       WHERE s.image_id = ANY(${list.sql})`,
      [list.param],
    );
    return this.restore(rows, sizes);
  }

  private restore(rows: ImageRow[], sizes: SizeRow[]): Image[] {
    const byImage = new Map<number, Partial<Record<RenditionName, RenditionInfo>>>();
    for (const size of sizes) {
      const map = byImage.get(size.image_id) ?? {};
      map[size.size as RenditionName] = { width: size.width, height: size.height, format: size.format as OutputFormat, bytes: toNumber(size.byte_size) };
      byImage.set(size.image_id, map);
    }
    return rows.map((r) =>
      Image.restore({
        id: r.id as ImageId,
        guid: r.guid,
        ownerId: r.owner_id,
        srcId: r.src_id as ImageId | null,
        filename: r.filename,
        format: r.format as ImageFormat,
        hasAlpha: r.has_alpha,
        byteSize: toNumber(r.byte_size),
        sourceWidth: r.source_width,
        sourceHeight: r.source_height,
        orientation: r.orientation,
        crop: r.crop,
        rotation: r.rotation as Rotation,
        width: r.width,
        height: r.height,
        version: r.version,
        exif: r.exif,
        renditions: byImage.get(r.id) ?? {},
        status: r.status as ImageStatus,
        createdAt: toDate(r.created_at),
        deletedAt: toDateOrNull(r.deleted_at),
        purgedAt: toDateOrNull(r.purged_at),
      }),
    );
  }

  async findVideo(ref: MediaRef): Promise<Video | null> {
    const [where, param] = whereRef(ref);
    const [row] = await this.em.execute<VideoRow[]>(`SELECT * FROM media_videos WHERE ${where}`, [param]);
    return row ? videoOf(row) : null;
  }

  async findVideoForUpdate(id: VideoId): Promise<Video | null> {
    const [row] = await this.em.execute<VideoRow[]>('SELECT * FROM media_videos WHERE id = ? FOR UPDATE', [id]);
    return row ? videoOf(row) : null;
  }

  async videosAwaitingPosterSince(before: Date, limit: number): Promise<Video[]> {
    const rows = await this.em.execute<VideoRow[]>(
      `SELECT * FROM media_videos WHERE poster_status = 'processing' AND deleted_at IS NULL AND created_at < ? ORDER BY created_at LIMIT ?`,
      [before, limit],
    );
    return rows.map(videoOf);
  }

  async saveVideo(video: Video): Promise<void> {
    const s = video.state;
    await this.em.execute(
      `INSERT INTO media_videos (id, guid, owner_id, src_id, filename, duration_ms, width, height, poster_image_id, encodings, poster_status, created_at, deleted_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET duration_ms = excluded.duration_ms, width = excluded.width, height = excluded.height,
         poster_image_id = excluded.poster_image_id, encodings = excluded.encodings, poster_status = excluded.poster_status, deleted_at = excluded.deleted_at`,
      [s.id, s.guid, s.ownerId, s.srcId, s.filename, s.durationMs, s.width, s.height, s.posterImageId, JSON.stringify(s.encodings), s.posterStatus, s.createdAt, s.deletedAt],
    );
  }

  async listVideos(ownerId: number, order: 'ASC' | 'DESC', page: Page): Promise<Video[]> {
    const rows = await this.em.execute<VideoRow[]>(
      `SELECT * FROM media_videos WHERE owner_id = ? AND deleted_at IS NULL ORDER BY id ${order === 'DESC' ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`,
      [ownerId, page.limit, page.offset],
    );
    return rows.map(videoOf);
  }

  async findEmbed(id: EmbedId): Promise<Embed | null> {
    const [row] = await this.em.execute<EmbedRow[]>('SELECT * FROM media_embeds WHERE id = ?', [id]);
    return row ? embedOf(row) : null;
  }

  async saveEmbed(embed: Embed): Promise<void> {
    const s = embed.state;
    await this.em.execute(
      `INSERT INTO media_embeds (id, owner_id, url, type, title, provider_name, provider_url, author_name, author_url, width, height, thumbnail_url, created_at, deleted_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET deleted_at = excluded.deleted_at`,
      [s.id, s.ownerId, s.url, s.type, s.title, s.providerName, s.providerUrl, s.authorName, s.authorUrl, s.width, s.height, s.thumbnailUrl, s.createdAt, s.deletedAt],
    );
  }

  async listEmbeds(ownerId: number, page: Page): Promise<Embed[]> {
    const rows = await this.em.execute<EmbedRow[]>('SELECT * FROM media_embeds WHERE owner_id = ? AND deleted_at IS NULL ORDER BY id DESC LIMIT ? OFFSET ?', [
      ownerId,
      page.limit,
      page.offset,
    ]);
    return rows.map(embedOf);
  }

  async findDocument(ref: MediaRef): Promise<MediaDocument | null> {
    const [where, param] = whereRef(ref);
    const [row] = await this.em.execute<DocumentRow[]>(`SELECT * FROM media_documents WHERE ${where}`, [param]);
    return row ? documentOf(row) : null;
  }

  async findDocuments(ids: readonly DocumentId[]): Promise<MediaDocument[]> {
    if (!ids.length) return [];
    const rows = await this.em.execute<DocumentRow[]>('SELECT * FROM media_documents WHERE id IN (SELECT value::int FROM jsonb_array_elements_text(?::jsonb))', [JSON.stringify(ids)]);
    return rows.map(documentOf);
  }

  async saveDocument(document: MediaDocument): Promise<void> {
    const s = document.state;
    await this.em.execute(
      `INSERT INTO media_documents (id, guid, owner_id, filename, title, byte_size, pages, thumbnail_image_id, created_at, deleted_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET title = excluded.title, pages = excluded.pages, thumbnail_image_id = excluded.thumbnail_image_id, deleted_at = excluded.deleted_at`,
      [s.id, s.guid, s.ownerId, s.filename, s.title, s.byteSize, s.pages, s.thumbnailImageId, s.createdAt, s.deletedAt],
    );
  }

  async addRotateJob(job: RotateJob): Promise<boolean> {
    const s = job.state;
    const rows = await this.em.execute<{ user_id: number }[]>(
      `INSERT INTO media_rotate_jobs (user_id, job_id, image_id, degrees, status, applied_version, created_at, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, job_id) DO NOTHING RETURNING user_id`,
      [s.userId, s.jobId, s.imageId, s.degrees, s.status, s.appliedVersion, s.createdAt, s.finishedAt],
    );
    return rows.length === 1;
  }

  findRotateJob(userId: number, jobId: string): Promise<RotateJob | null> {
    return this.rotateJob('SELECT * FROM media_rotate_jobs WHERE user_id = ? AND job_id = ?', userId, jobId);
  }

  findRotateJobForUpdate(userId: number, jobId: string): Promise<RotateJob | null> {
    return this.rotateJob('SELECT * FROM media_rotate_jobs WHERE user_id = ? AND job_id = ? FOR UPDATE', userId, jobId);
  }

  async saveRotateJob(job: RotateJob): Promise<void> {
    const s = job.state;
    await this.em.execute('UPDATE media_rotate_jobs SET status = ?, applied_version = ?, finished_at = ? WHERE user_id = ? AND job_id = ?', [
      s.status,
      s.appliedVersion,
      s.finishedAt,
      s.userId,
      s.jobId,
    ]);
  }

  private async rotateJob(sql: string, userId: number, jobId: string): Promise<RotateJob | null> {
    const [row] = await this.em.execute<RotateJobRow[]>(sql, [userId, jobId]);
    return row
      ? RotateJob.restore({
          userId: row.user_id,
          jobId: row.job_id,
          imageId: row.image_id as ImageId,
          degrees: row.degrees as 90 | 180 | 270,
          status: row.status as RotateJobStatus,
          appliedVersion: row.applied_version,
          createdAt: toDate(row.created_at),
          finishedAt: toDateOrNull(row.finished_at),
        })
      : null;
  }
}

interface VideoRow {
  id: number;
  guid: string;
  owner_id: number;
  src_id: number | null;
  filename: string;
  duration_ms: number;
  width: number;
  height: number;
  poster_image_id: number | null;
  encodings: VideoEncoding[];
  poster_status: VideoPosterStatus;
  created_at: Date | string;
  deleted_at: Date | string | null;
}

const videoOf = (r: VideoRow): Video =>
  Video.restore({
    id: r.id as VideoId,
    guid: r.guid,
    ownerId: r.owner_id,
    srcId: r.src_id as VideoId | null,
    filename: r.filename,
    durationMs: r.duration_ms,
    width: r.width,
    height: r.height,
    posterImageId: r.poster_image_id as ImageId | null,
    encodings: r.encodings,
    posterStatus: r.poster_status,
    createdAt: toDate(r.created_at),
    deletedAt: toDateOrNull(r.deleted_at),
  });

interface EmbedRow {
  id: number;
  owner_id: number;
  url: string;
  type: string;
  title: string | null;
  provider_name: string | null;
  provider_url: string | null;
  author_name: string | null;
  author_url: string | null;
  width: number | null;
  height: number | null;
  thumbnail_url: string | null;
  created_at: Date | string;
  deleted_at: Date | string | null;
}

const embedOf = (r: EmbedRow): Embed =>
  Embed.restore({
    id: r.id as EmbedId,
    ownerId: r.owner_id,
    url: r.url,
    type: r.type as EmbedType,
    title: r.title,
    providerName: r.provider_name,
    providerUrl: r.provider_url,
    authorName: r.author_name,
    authorUrl: r.author_url,
    width: r.width,
    height: r.height,
    thumbnailUrl: r.thumbnail_url,
    createdAt: toDate(r.created_at),
    deletedAt: toDateOrNull(r.deleted_at),
  });

function documentOf(row: DocumentRow): MediaDocument {
  return MediaDocument.restore({
    id: row.id as DocumentId,
    guid: row.guid,
    ownerId: row.owner_id,
    filename: row.filename,
    title: row.title,
    byteSize: toNumber(row.byte_size),
    pages: row.pages,
    thumbnailImageId: row.thumbnail_image_id as ImageId | null,
    createdAt: toDate(row.created_at),
    deletedAt: toDateOrNull(row.deleted_at),
  });
}

interface DocumentRow {
  id: number;
  guid: string;
  owner_id: number;
  filename: string;
  title: string;
  byte_size: string | number;
  pages: number | null;
  thumbnail_image_id: number | null;
  created_at: Date | string;
  deleted_at: Date | string | null;
}

interface RotateJobRow {
  user_id: number;
  job_id: string;
  image_id: number;
  degrees: number;
  status: string;
  applied_version: number | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}
