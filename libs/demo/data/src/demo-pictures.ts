import type { INestApplicationContext } from '@nestjs/common';
import { UploadImage, type MediaDeps } from '@rc/media-domain';
import { JobQueue, type JobRequest } from '@rc/shared-kernel';

// sharp and the media HTTP module are loaded when pictures are made, not by whatever imports this
// library for its migration (the relay and other processes built without Nest's decorators).

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text as SVG character data or an attribute value: markup characters escaped. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** A label's lines of at most about 26 characters, broken at spaces (at most three lines). */
function linesOf(label: string): string[] {
  const lines: string[] = [];
  for (const word of label.split(/\s+/).filter(Boolean)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && `${last} ${word}`.length <= 26) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.slice(0, 3);
}

/**
 * A demo picture: a JPEG of 800×600 with a background of this hue, a frame and the label, drawn
 * from an SVG built here (the label escaped, so no text changes the drawing).
 */
export async function demoPicture(label: string, hue: number): Promise<Buffer> {
  const lines = linesOf(label);
  const top = 300 - ((lines.length - 1) * 64) / 2 + 18;
  const text = lines.map((line, i) => `<text x="400" y="${top + i * 64}" font-family="DejaVu Sans, Arial, sans-serif" font-size="52" font-weight="bold" fill="#ffffff" text-anchor="middle">${escapeXml(line)}</text>`).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">` +
    `<rect width="800" height="600" fill="hsl(${Math.round(hue) % 360}, 55%, 42%)"/>` +
    `<circle cx="680" cy="120" r="180" fill="#ffffff" fill-opacity="0.12"/>` +
    `<rect x="32" y="32" width="736" height="536" rx="28" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="8"/>` +
    text +
    `</svg>`;
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

/**
 * Jobs asked for while the demo loads, inside its transaction (before the job queue starts): none
 * is sent; the start-up that follows enqueues the sizes of every image still without them.
 */
class NoJobsYet extends JobQueue {
  async enqueue(_job: JobRequest): Promise<boolean> {
    return false;
  }
}

/** Uploads demo pictures through the media context's use case, as their owners. */
export class DemoPictures {
  private count = 0;

  private constructor(private readonly upload: UploadImage) {}

  static async for(app: INestApplicationContext): Promise<DemoPictures> {
    const { MEDIA_DEPS } = await import('@rc/media-http');
    return new DemoPictures(new UploadImage({ ...app.get<MediaDeps>(MEDIA_DEPS, { strict: false }), jobs: new NoJobsYet() }));
  }

  get uploaded(): number {
    return this.count;
  }

  /** A picture labelled `label` in the owner's library: its image id. */
  async of(ownerId: number, label: string): Promise<number> {
    const bytes = await demoPicture(label, (this.count++ * 47 + 200) % 360);
    const name = label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'picture';
    const image = await this.upload.execute({ ownerId, filename: `${name.slice(0, 60)}.jpg`, body: (async function* () { yield bytes; })(), declaredBytes: bytes.length });
    return image.id;
  }
}
