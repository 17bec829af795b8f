import { ascii } from './ascii.js';
import type { Page } from '@rc/shared-kernel';
import { Embed } from '../model/embed.js';
import { Image, type ShownImage } from '../model/image.js';
import { MediaDocument } from '../model/media-document.js';
import type { DocumentId, EmbedId, ImageId, MediaKind, MediaRef, VideoId } from '../model/media-ids.js';
import type { MediaViewer } from '../model/media-viewer.js';
import { RotateJob } from '../model/rotate-job.js';
import { Video } from '../model/video.js';
import { GuidSource } from '../ports/guid-source.js';
import { MediaTypeSniffer } from '../ports/media-type-sniffer.js';
import { MediaUsage } from '../ports/media-usage.js';
import { MediaRepository, type LibraryFilter } from '../ports/media.repository.js';
import { UploadAllowance, type AllowanceLimits, type SlotDecision } from '../ports/upload-allowance.js';

const matches = (ref: MediaRef, s: { id: number; guid: string }) => ('id' in ref ? s.id === ref.id : s.guid === ref.guid);

/** Media held in memory; loads are copies, so changes reach it only through `save…`, as with the database. */
export class InMemoryMediaRepository extends MediaRepository {
  readonly images = new Map<number, Image>();
  readonly videos = new Map<number, Video>();
  readonly embeds = new Map<number, Embed>();
  readonly documents = new Map<number, MediaDocument>();
  readonly rotateJobs = new Map<string, RotateJob>();
  private seq = { image: 0, video: 0, embed: 0, document: 0 };

  async nextImageId(): Promise<ImageId> {
    return ++this.seq.image as ImageId;
  }
  async nextVideoId(): Promise<VideoId> {
    return ++this.seq.video as VideoId;
  }
  async nextEmbedId(): Promise<EmbedId> {
    return ++this.seq.embed as EmbedId;
  }
  async nextDocumentId(): Promise<DocumentId> {
    return ++this.seq.document as DocumentId;
  }

  async findImage(ref: MediaRef): Promise<Image | null> {
    const found = [...this.images.values()].find((i) => matches(ref, i.state));
    return found ? Image.restore(found.state) : null;
  }
  findImageForUpdate(id: ImageId): Promise<Image | null> {
    return this.findImage({ id });
  }
  async findImages(ids: readonly ImageId[]): Promise<Image[]> {
    return ids.map((id) => this.images.get(id)).filter((i): i is Image => !!i).map((i) => Image.restore(i.state));
  }
  async findShownImages(ids: readonly ImageId[]): Promise<ShownImage[]> {
    return (await this.findImages(ids)).filter((i) => !i.isPurged).map((i) => i.shown);
  }
  async findOwnedImages(ownerId: number, ids: readonly ImageId[]): Promise<Image[]> {
    return ids.map((id) => this.images.get(id)).filter((i): i is Image => !!i && i.state.ownerId === ownerId && !i.isDeleted).map((i) => Image.restore(i.state));
  }
  async saveImage(image: Image): Promise<void> {
    this.images.set(image.id, Image.restore(image.state));
  }
  async listLibrary(ownerId: number, filter: LibraryFilter, page: Page): Promise<Image[]> {
    return [...this.images.values()]
      .filter((i) => i.state.ownerId === ownerId && !i.isDeleted)
      .filter((i) => (filter.ratio === 'ALL' || i.ratio === filter.ratio) && i.state.width >= filter.minWidth && i.state.height >= filter.minHeight)
      .sort((a, b) => b.state.createdAt.getTime() - a.state.createdAt.getTime() || b.id - a.id)
      .slice(page.offset, page.offset + page.limit)
      .map((i) => Image.restore(i.state));
  }
  async imagesProcessingSince(before: Date, limit: number): Promise<Image[]> {
    return [...this.images.values()].filter((i) => i.state.status === 'processing' && !i.isPurged && i.state.createdAt < before).slice(0, limit);
  }

  async findVideo(ref: MediaRef): Promise<Video | null> {
    const found = [...this.videos.values()].find((v) => matches(ref, v.state));
    return found ? Video.restore(found.state) : null;
  }
  findVideoForUpdate(id: VideoId): Promise<Video | null> {
    return this.findVideo({ id });
  }
  async videosAwaitingPosterSince(before: Date, limit: number): Promise<Video[]> {
    return [...this.videos.values()].filter((v) => v.state.posterStatus === 'processing' && !v.isDeleted && v.state.createdAt < before).slice(0, limit).map((v) => Video.restore(v.state));
  }
  async saveVideo(video: Video): Promise<void> {
    this.videos.set(video.id, Video.restore(video.state));
  }
  async listVideos(ownerId: number, order: 'ASC' | 'DESC', page: Page): Promise<Video[]> {
    return [...this.videos.values()]
      .filter((v) => v.state.ownerId === ownerId && !v.isDeleted)
      .sort((a, b) => (order === 'ASC' ? a.id - b.id : b.id - a.id))
      .slice(page.offset, page.offset + page.limit);
  }

  async findEmbed(id: EmbedId): Promise<Embed | null> {
    const found = this.embeds.get(id);
    return found ? Embed.restore(found.state) : null;
  }
  async saveEmbed(embed: Embed): Promise<void> {
    this.embeds.set(embed.id, Embed.restore(embed.state));
  }
  async listEmbeds(ownerId: number, page: Page): Promise<Embed[]> {
    return [...this.embeds.values()].filter((e) => e.state.ownerId === ownerId && !e.isDeleted).sort((a, b) => b.id - a.id).slice(page.offset, page.offset + page.limit);
  }

  async findDocument(ref: MediaRef): Promise<MediaDocument | null> {
    const found = [...this.documents.values()].find((d) => matches(ref, d.state));
    return found ? MediaDocument.restore(found.state) : null;
  }
  async findDocuments(ids: readonly DocumentId[]): Promise<MediaDocument[]> {
    return ids.flatMap((id) => {
      const found = this.documents.get(id);
      return found ? [MediaDocument.restore(found.state)] : [];
    });
  }
  async saveDocument(document: MediaDocument): Promise<void> {
    this.documents.set(document.id, MediaDocument.restore(document.state));
  }

  async addRotateJob(job: RotateJob): Promise<boolean> {
    const key = `${job.state.userId}:${job.state.jobId}`;
    if (this.rotateJobs.has(key)) return false;
    this.rotateJobs.set(key, RotateJob.restore(job.state));
    return true;
  }
  async findRotateJob(userId: number, jobId: string): Promise<RotateJob | null> {
    const found = this.rotateJobs.get(`${userId}:${jobId}`);
    return found ? RotateJob.restore(found.state) : null;
  }
  findRotateJobForUpdate(userId: number, jobId: string): Promise<RotateJob | null> {
    return this.findRotateJob(userId, jobId);
  }
  async saveRotateJob(job: RotateJob): Promise<void> {
    this.rotateJobs.set(`${job.state.userId}:${job.state.jobId}`, RotateJob.restore(job.state));
  }
}

/** Usages set by hand: `public` ones any viewer sees, `private` ones only `viewers` see. */
export class InMemoryMediaUsage extends MediaUsage {
  readonly uses = new Map<string, { viewers: Set<number> | 'everyone' }>();

  use(kind: MediaKind, id: number, viewers: readonly number[] | 'everyone' = 'everyone'): void {
    this.uses.set(`${kind}:${id}`, { viewers: viewers === 'everyone' ? 'everyone' : new Set(viewers) });
  }

  unuse(kind: MediaKind, id: number): void {
    this.uses.delete(`${kind}:${id}`);
  }

  async usedAmong(kind: MediaKind, ids: readonly number[]): Promise<Set<number>> {
    return new Set(ids.filter((id) => this.uses.has(`${kind}:${id}`)));
  }

  async visibleThroughContent(kind: MediaKind, id: number, viewer: MediaViewer): Promise<boolean> {
    const use = this.uses.get(`${kind}:${id}`);
    if (!use) return false;
    return use.viewers === 'everyone' || (viewer.userId !== null && use.viewers.has(viewer.userId));
  }
}

/** Fixed windows and a stored total per user, in memory. */
export class InMemoryUploadAllowance extends UploadAllowance {
  readonly windows = new Map<number, { start: number; count: number }>();
  readonly stored = new Map<number, number>();

  async takeUploadSlot(userId: number, now: Date, limits: AllowanceLimits): Promise<SlotDecision> {
    if (!limits.uploadsPerWindow) return { ok: true };
    const size = limits.windowSeconds * 1000;
    const start = Math.floor(now.getTime() / size) * size;
    const window = this.windows.get(userId);
    const count = window && window.start === start ? window.count : 0;
    if (count >= limits.uploadsPerWindow) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((start + size - now.getTime()) / 1000)) };
    this.windows.set(userId, { start, count: count + 1 });
    return { ok: true };
  }

  async reserveBytes(userId: number, bytes: number, limits: AllowanceLimits): Promise<boolean> {
    const total = (this.stored.get(userId) ?? 0) + bytes;
    if (limits.quotaBytes && total > limits.quotaBytes) return false;
    this.stored.set(userId, total);
    return true;
  }

  async releaseBytes(userId: number, bytes: number): Promise<void> {
    this.stored.set(userId, Math.max(0, (this.stored.get(userId) ?? 0) - bytes));
  }

  async storedBytes(userId: number): Promise<number> {
    return this.stored.get(userId) ?? 0;
  }
}

/** GUIDs `Guid000000000001`, `Guid000000000002`... */
export class SequenceGuids extends GuidSource {
  private n = 0;
  next(): string {
    return `Guid${String(++this.n).padStart(12, '0')}`;
  }
}

/** Knows MP4 (`ftyp` box), WebM (EBML) and PDF by their first bytes. */
export class FakeMediaTypeSniffer extends MediaTypeSniffer {
  async sniff(head: Uint8Array): Promise<{ ext: string; mime: string } | null> {
    const text = ascii(head.subarray(0, 16));
    if (text.slice(4, 8) === 'ftyp') return text.slice(8, 10) === 'qt' ? { ext: 'mov', mime: 'video/quicktime' } : { ext: 'mp4', mime: 'video/mp4' };
    if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return { ext: 'webm', mime: 'video/webm' };
    if (text.startsWith('%PDF-')) return { ext: 'pdf', mime: 'application/pdf' };
    return null;
  }
}
