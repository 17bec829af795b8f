import type { ImageId, VideoId } from './media-ids.js';

/** The video containers accepted. Transcoding is out of scope: the one encoding is the upload. */
export const VIDEO_FORMATS = { mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime' } as const;
export type VideoFormat = keyof typeof VIDEO_FORMATS;

export function isVideoFormat(value: string): value is VideoFormat {
  return Object.hasOwn(VIDEO_FORMATS, value);
}

/** One playable file of a video (reference §3.13 `encodings[]`). */
export interface VideoEncoding {
  /** e.g. `MP4_ORIGINAL` (the original service names columns such as `MP4_720`). */
  readonly column: string;
  readonly label: string;
  readonly width: number;
  readonly height: number;
  readonly codecs: string | null;
  readonly mime: string;
  readonly format: VideoFormat;
  readonly key: string;
  readonly bytes: number;
  readonly alwaysGenerate: boolean;
}

/**
 * Where the poster frame and the metadata (duration, size) stand: `processing` until the background
 * job read them; `unavailable` when this deployment has no video decoder (the video is still served).
 */
export type VideoPosterStatus = 'processing' | 'ready' | 'failed' | 'unavailable';

/** What a decoder read from a video: its duration and the size it is shown at (rotation applied). */
export interface VideoMetadata {
  readonly durationMs: number;
  readonly width: number;
  readonly height: number;
}

export interface VideoState {
  readonly id: VideoId;
  readonly guid: string;
  readonly ownerId: number;
  readonly srcId: VideoId | null;
  readonly filename: string;
  /** Milliseconds (reference §1.10); 0 while unknown. */
  readonly durationMs: number;
  readonly width: number;
  readonly height: number;
  /** The still shown before playing: an image of the owner's library. */
  readonly posterImageId: ImageId | null;
  readonly encodings: readonly VideoEncoding[];
  readonly posterStatus: VideoPosterStatus;
  readonly createdAt: Date;
  readonly deletedAt: Date | null;
}

export interface NewVideo {
  readonly id: VideoId;
  readonly guid: string;
  readonly ownerId: number;
  readonly filename: string;
  readonly format: VideoFormat;
  readonly bytes: number;
  /** What a prober read, when one did; unknown values are 0. */
  readonly width?: number;
  readonly height?: number;
  readonly durationMs?: number;
  readonly now: Date;
}

/** A video in a user's library: one encoding (the upload as it came) and an optional poster image. */
export class Video {
  private constructor(private current: VideoState) {}

  static restore(state: VideoState): Video {
    return new Video({ ...state, encodings: state.encodings.map((e) => ({ ...e })) });
  }

  static upload(input: NewVideo): Video {
    const width = input.width ?? 0;
    const height = input.height ?? 0;
    const encoding: VideoEncoding = {
      column: `${input.format.toUpperCase()}_ORIGINAL`,
      label: height ? `${height}p` : 'original',
      width,
      height,
      codecs: null,
      mime: VIDEO_FORMATS[input.format],
      format: input.format,
      key: Video.keyFor(input.guid, input.format),
      bytes: input.bytes,
      alwaysGenerate: true,
    };
    return new Video({
      id: input.id,
      guid: input.guid,
      ownerId: input.ownerId,
      srcId: null,
      filename: input.filename,
      durationMs: input.durationMs ?? 0,
      width,
      height,
      posterImageId: null,
      encodings: [encoding],
      posterStatus: 'processing',
      createdAt: input.now,
      deletedAt: null,
    });
  }

  static keyFor(guid: string, format: VideoFormat): string {
    return `videos/${guid}/original.${format}`;
  }

  get id(): VideoId {
    return this.current.id;
  }

  get state(): VideoState {
    return this.current;
  }

  get isDeleted(): boolean {
    return this.current.deletedAt !== null;
  }

  get key(): string {
    return this.current.encodings[0]!.key;
  }

  setPoster(imageId: ImageId | null): void {
    this.current = { ...this.current, posterImageId: imageId };
  }

  /**
   * The background job read the video: its metadata (on the video and its one encoding) and, when a
   * frame could be cut, the poster image. A poster the owner already chose is kept.
   */
  recordProbe(metadata: VideoMetadata, posterImageId: ImageId | null): void {
    const { durationMs, width, height } = metadata;
    this.current = {
      ...this.current,
      durationMs,
      width,
      height,
      encodings: this.current.encodings.map((e) => ({ ...e, width, height, label: height ? `${height}p` : e.label })),
      posterImageId: this.current.posterImageId ?? posterImageId,
      posterStatus: 'ready',
    };
  }

  /** The job gave up (`failed`), or there is no decoder to run it (`unavailable`). */
  markPosterStatus(status: 'failed' | 'unavailable'): void {
    this.current = { ...this.current, posterStatus: status };
  }

  removeFromLibrary(now: Date): void {
    if (!this.isDeleted) this.current = { ...this.current, deletedAt: now };
  }
}
