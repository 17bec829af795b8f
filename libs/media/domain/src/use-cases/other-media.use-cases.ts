import type { Page } from '@rc/shared-kernel';
import {
  DocumentNotFoundError,
  EmbedNotFoundError,
  ImageNotFoundError,
  InvalidMediaError,
  StorageQuotaExceededError,
  UnsupportedImageTypeError,
  UploadRateLimitedError,
  UploadTooLargeError,
  VideoNotFoundError,
} from '../media.errors.js';
import { PROBE_HEAD_BYTES } from '../media-settings.js';
import { keepHead, limitBytes } from '../model/bytes.js';
import { Embed, type OEmbedFields } from '../model/embed.js';
import { looksLikePdf, MediaDocument, PDF_MIME } from '../model/media-document.js';
import { parseMediaRef, type DocumentId, type EmbedId, type ImageId, type VideoId } from '../model/media-ids.js';
import type { MediaViewer } from '../model/media-viewer.js';
import { displayFilename, readPlainText } from '../model/text-fields.js';
import { isVideoFormat, Video, VIDEO_FORMATS, type VideoFormat } from '../model/video.js';
import type { ByteStream, StoredObject } from '../ports/media-store.js';
import type { OEmbedResolver } from '../ports/oembed-resolver.js';
import type { MediaRepository } from '../ports/media.repository.js';
import type { Image } from '../model/image.js';
import { assertViewable } from './media-access.js';
import { MEDIA_JOBS, type MediaDeps } from './media-deps.js';

export async function enqueuePoster(deps: Pick<MediaDeps, 'jobs'>, videoId: VideoId): Promise<void> {
  await deps.jobs.enqueue({ name: MEDIA_JOBS.poster, payload: { videoId }, dedupeKey: String(videoId) });
}

/**
 * Streams an upload to the store under the user's rate limit and quota, checks its first bytes
 * with `check`, and deletes it again (releasing the quota) when the check or `then` fails.
 */
async function storeUpload<T>(
  deps: MediaDeps,
  input: { ownerId: number; body: ByteStream; declaredBytes?: number | null },
  maxBytes: number,
  key: string,
  contentType: string,
  check: (head: Uint8Array) => Promise<void>,
  then: (stored: StoredObject) => Promise<T>,
): Promise<T> {
  const { settings, allowance, store, clock } = deps;
  const limits = settings.allowance;
  if (input.declaredBytes && input.declaredBytes > maxBytes) throw new UploadTooLargeError(maxBytes);
  const slot = await allowance.takeUploadSlot(input.ownerId, clock.now(), limits);
  if (!slot.ok) throw new UploadRateLimitedError(slot.retryAfterSeconds);
  // A declared size past the quota is refused before a byte is stored; the stored size is checked again after.
  if (limits.quotaBytes && input.declaredBytes && (await allowance.storedBytes(input.ownerId)) + input.declaredBytes > limits.quotaBytes) {
    throw new StorageQuotaExceededError(limits.quotaBytes);
  }
  const counted = keepHead(limitBytes(input.body, maxBytes, () => new UploadTooLargeError(maxBytes)), PROBE_HEAD_BYTES);
  const stored = await store.put(key, counted.stream, contentType);
  let reserved = false;
  try {
    await check(counted.head());
    if (!(await allowance.reserveBytes(input.ownerId, stored.size, settings.allowance))) throw new StorageQuotaExceededError(settings.allowance.quotaBytes);
    reserved = true;
    return await then(stored);
  } catch (error) {
    if (reserved) await allowance.releaseBytes(input.ownerId, stored.size);
    await store.delete(key);
    throw error;
  }
}

/**
 * Adds a video to the uploader's library: an MP4, WebM or QuickTime file, told by its bytes. It is
 * kept as its one encoding (transcoding is out of scope), so it is served as uploaded.
 */
export class UploadVideo {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { ownerId: number; filename: string; body: ByteStream; declaredBytes?: number | null }): Promise<Video> {
    const filename = displayFilename(input.filename);
    const ext = filename.includes('.') ? filename.slice(filename.lastIndexOf('.') + 1).toLowerCase() : '';
    const named: VideoFormat | null = ext === 'm4v' ? 'mp4' : ext === 'qt' ? 'mov' : isVideoFormat(ext) ? ext : null;
    if (!named) throw new UnsupportedImageTypeError('file must name an MP4, WebM or QuickTime (.mov) video');
    const id = await this.deps.media.nextVideoId();
    const guid = this.deps.guids.next();
    return storeUpload(
      this.deps,
      input,
      this.deps.settings.maxVideoBytes,
      Video.keyFor(guid, named),
      VIDEO_FORMATS[named],
      async (head) => {
        const sniffed = await this.deps.sniffer.sniff(head);
        const format = sniffed?.ext === 'm4v' ? 'mp4' : sniffed?.ext;
        if (!format || !isVideoFormat(format)) throw new UnsupportedImageTypeError('The file is not an MP4, WebM or QuickTime video');
        if (format !== named) throw new InvalidMediaError(`The file is named as ${named.toUpperCase()} but its bytes are ${format.toUpperCase()}`);
      },
      async (stored) => {
        const video = Video.upload({ id, guid, ownerId: input.ownerId, filename, format: named, bytes: stored.size, now: this.deps.clock.now() });
        if (!this.deps.videos.available) video.markPosterStatus('unavailable');
        await this.deps.media.saveVideo(video);
        if (this.deps.videos.available) await enqueuePoster(this.deps, video.id);
        return video;
      },
    );
  }
}

/** Sets (or clears) the still of one of the owner's videos: an image of their library. */
export class SetVideoPoster {
  constructor(private readonly deps: Pick<MediaDeps, 'media' | 'uow'>) {}

  async execute(input: { ownerId: number; videoId: VideoId; imageId: ImageId | null }): Promise<Video> {
    return this.deps.uow.run(async () => {
      const video = await this.deps.media.findVideo({ id: input.videoId });
      if (!video || video.isDeleted || video.state.ownerId !== input.ownerId) throw new VideoNotFoundError();
      if (input.imageId !== null) {
        const image = await this.deps.media.findImage({ id: input.imageId });
        if (!image || image.isDeleted || image.isPurged || image.state.ownerId !== input.ownerId) throw new ImageNotFoundError();
      }
      video.setPoster(input.imageId);
      await this.deps.media.saveVideo(video);
      return video;
    });
  }
}

/** A video and its poster image (`null`: none, or one whose files are gone). */
export interface VideoView {
  readonly video: Video;
  readonly poster: Image | null;
}

async function withPoster(media: MediaRepository, video: Video): Promise<VideoView> {
  const id = video.state.posterImageId;
  const poster = id === null ? null : await media.findImage({ id });
  return { video, poster: poster && !poster.isPurged ? poster : null };
}

/** The caller's videos by id (GET /user/media/videos, `order` ASC or DESC). */
export class ListVideos {
  constructor(private readonly deps: Pick<MediaDeps, 'media'>) {}

  async execute(input: { ownerId: number; order: 'ASC' | 'DESC'; page: Page }): Promise<VideoView[]> {
    const videos = await this.deps.media.listVideos(input.ownerId, input.order, input.page);
    return Promise.all(videos.map((video) => withPoster(this.deps.media, video)));
  }
}

/** A video by id or GUID for a viewer (GET /media/videos/{id}). */
export class GetVideo {
  constructor(private readonly deps: Pick<MediaDeps, 'media' | 'usage'>) {}

  async execute(input: { viewer: MediaViewer; ref: string }): Promise<VideoView> {
    const ref = parseMediaRef(input.ref);
    const video = ref ? await this.deps.media.findVideo(ref) : null;
    if (!video || video.isDeleted) throw new VideoNotFoundError();
    await assertViewable(this.deps.usage, 'video', video.id, video.state.ownerId, input.viewer);
    return withPoster(this.deps.media, video);
  }
}

/**
 * Adds an embed from a page URL: the site's oEmbed answer (through the resolver) or, when the site
 * has none, the fields the client gave. Provider HTML is never kept.
 */
export class AddEmbed {
  constructor(private readonly deps: Pick<MediaDeps, 'media' | 'clock' | 'allowance' | 'settings'> & { readonly oembed: OEmbedResolver }) {}

  async execute(input: { ownerId: number; url: unknown; fields?: OEmbedFields }): Promise<Embed> {
    const resolved = typeof input.url === 'string' && /^https?:\/\//i.test(input.url) ? await this.deps.oembed.resolve(input.url) : null;
    // What the provider says wins over what the client says; the client's fields fill the rest.
    const fields = { ...(input.fields ?? {}), ...Object.fromEntries(Object.entries(resolved ?? {}).filter(([, v]) => v !== undefined && v !== null)) };
    const embed = Embed.create((await this.deps.media.nextEmbedId()) as EmbedId, input.ownerId, input.url, fields, this.deps.clock.now());
    // An embed counts as an upload for the rate limit (it stores nothing, so no quota).
    const slot = await this.deps.allowance.takeUploadSlot(input.ownerId, this.deps.clock.now(), this.deps.settings.allowance);
    if (!slot.ok) throw new UploadRateLimitedError(slot.retryAfterSeconds);
    await this.deps.media.saveEmbed(embed);
    return embed;
  }
}

/** The caller's embeds, newest first (GET /user/media/embeds, legacy). */
export class ListEmbeds {
  constructor(private readonly deps: Pick<MediaDeps, 'media'>) {}

  execute(input: { ownerId: number; page: Page }): Promise<Embed[]> {
    return this.deps.media.listEmbeds(input.ownerId, input.page);
  }
}

export class GetEmbed {
  constructor(private readonly deps: Pick<MediaDeps, 'media' | 'usage'>) {}

  async execute(input: { viewer: MediaViewer; id: EmbedId }): Promise<Embed> {
    const embed = await this.deps.media.findEmbed(input.id);
    if (!embed) throw new EmbedNotFoundError();
    await assertViewable(this.deps.usage, 'embed', embed.id, embed.state.ownerId, input.viewer);
    return embed;
  }
}

/** Adds a PDF (told by its bytes, whatever its name) with a title (default: the file name). */
export class UploadDocument {
  constructor(private readonly deps: MediaDeps) {}

  async execute(input: { ownerId: number; filename: string; title?: unknown; body: ByteStream; declaredBytes?: number | null }): Promise<MediaDocument> {
    const filename = displayFilename(input.filename);
    const violations: { field: string; message: string }[] = [];
    const title = readPlainText(input.title, 'title', 255, violations) ?? filename.replace(/\.pdf$/i, '');
    if (violations.length) throw new InvalidMediaError(violations[0]!.message, 'title');
    const id = (await this.deps.media.nextDocumentId()) as DocumentId;
    const guid = this.deps.guids.next();
    return storeUpload(
      this.deps,
      input,
      this.deps.settings.maxDocumentBytes,
      MediaDocument.keyFor(guid),
      PDF_MIME,
      async (head) => {
        if (!looksLikePdf(head)) throw new UnsupportedImageTypeError('The file is not a PDF document');
      },
      async (stored) => {
        const document = MediaDocument.upload({ id, guid, ownerId: input.ownerId, filename, title, byteSize: stored.size, now: this.deps.clock.now() });
        await this.deps.media.saveDocument(document);
        return document;
      },
    );
  }
}

/** A document by id or GUID (GET /media/documents/{id}): visible to its owner, editors, Admins, or through content. */
export class GetDocument {
  constructor(private readonly deps: Pick<MediaDeps, 'media' | 'usage'>) {}

  async execute(input: { viewer: MediaViewer; ref: string }): Promise<MediaDocument> {
    const ref = parseMediaRef(input.ref);
    const document = ref ? await this.deps.media.findDocument(ref) : null;
    if (!document || document.isDeleted) throw new DocumentNotFoundError();
    await assertViewable(this.deps.usage, 'document', document.id, document.state.ownerId, input.viewer);
    return document;
  }
}
