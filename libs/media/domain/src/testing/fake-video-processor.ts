import { readAll } from '../model/bytes.js';
import type { ByteStream } from '../ports/media-store.js';
import { VideoProcessor, type VideoProbe } from '../ports/video-processor.js';
import type { VideoFormat } from '../model/video.js';
import { fakeImage } from './fake-image-processor.js';

/** A decoder that reads any bytes as a 10-second 640×360 video whose frame is a fake JPEG (`fail`: rejects). */
export class FakeVideoProcessor extends VideoProcessor {
  probes = 0;
  fail = false;

  constructor(readonly available = true) {
    super();
  }

  async probe(source: ByteStream, _format: VideoFormat): Promise<VideoProbe> {
    this.probes++;
    await readAll(source);
    if (this.fail) throw new Error('cannot decode this video');
    return { durationMs: 10_000, width: 640, height: 360, frame: fakeImage('jpeg', 640, 360) };
  }
}
