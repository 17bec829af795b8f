import type { VideoFormat, VideoMetadata } from '../model/video.js';
import type { ByteStream } from './media-store.js';

/** What a decoder read from a video: its metadata and one frame (a JPEG image), or no frame when it could cut none. */
export interface VideoProbe extends VideoMetadata {
  readonly frame: Uint8Array | null;
}

/**
 * Reads videos: duration, shown size and a poster frame. A deployment without a decoder has one
 * that answers `available: false`; its videos are kept and served without poster or metadata.
 */
export abstract class VideoProcessor {
  /** Whether this deployment can decode videos (the decoder was found at start). */
  abstract readonly available: boolean;
  /**
   * Reads the whole video (streamed, never held in memory: implementations spool it to disk) as the
   * container `format` (the one its bytes were checked to be at upload, and no other) and answers
   * its metadata and a frame near its start. Rejects bytes it cannot decode.
   */
  abstract probe(source: ByteStream, format: VideoFormat): Promise<VideoProbe>;
}
