import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { isRenditionName, MediaRepository, MediaStore, type ByteRange } from '@rc/media-domain';
import { Endpoint, sendError } from '@rc/shared-http';
import { parseImageFile } from './media.presenter.js';

/** How long a size not made yet is worth waiting for before asking again. */
const RETRY_AFTER_SECONDS = 2;

/**
 * A Range header of one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), clamped to the file; `null`
 * for no usable Range (the whole file is sent), `'unsatisfiable'` for one outside the file.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (!match[1] && !match[2])) return null;
  if (!match[1]) {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * The image files (reference §3.1 URL pattern `/igi/<guid>.<size>`): the sizes the background job
 * made, re-encoded without metadata. A URL names one version of an image, so its bytes never
 * change: cached for a year, immutable.
 */
@ApiTags('Media')
@Controller('igi')
export class ImageFilesController {
  constructor(
    private readonly media: MediaRepository,
    private readonly store: MediaStore,
  ) {}

  @Get(':file')
  @Endpoint({
    summary: 'An image file',
    description:
      '`<guid>.<size>` (`full`: the original; after a rotation `<guid>-<version>.<size>`). Byte ranges (206, 416) and HEAD. ' +
      'A size not made yet is a 404 with Retry-After.',
    errors: [404, 416],
    notFound: 'No such image file',
  })
  @ApiParam({ name: 'file', description: 'e.g. FucWIkw2ZEBiIJHk.medium' })
  @ApiOkResponse({ description: 'The image bytes' })
  @ApiResponse({ status: 206, description: 'A byte range' })
  async file(@Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const parsed = parseImageFile(file);
    const size = parsed?.size === 'full' ? 'original' : parsed?.size;
    if (!parsed || !size || !isRenditionName(size)) return sendError(res, 404, { message: 'No such image file' });
    const image = await this.media.findImage({ guid: parsed.guid });
    if (!image || image.isPurged) return sendError(res, 404, { message: 'No such image file' });
    if (parsed.version !== image.state.version) return sendError(res, 404, { message: 'This version of the image was replaced (rotated): fetch the image again for its current URLs' });
    if (!image.state.renditions[size]) {
      if (image.state.status === 'failed') return sendError(res, 404, { message: 'This size of the image could not be made' });
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      return sendError(res, 404, { message: `The ${parsed.size} size of this image is not made yet: try again shortly` });
    }
    const key = image.renditionKey(size);
    const head = await this.store.head(key);
    if (!head) return sendError(res, 404, { message: 'No such image file' });
    const etag = `"${parsed.guid}-${image.state.version}-${size}-${head.size}"`;
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('ETag', etag);
    res.setHeader('Last-Modified', head.modifiedAt.toUTCString());
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Type', head.contentType);
    const matches = (req.headers['if-none-match'] ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (matches.includes(etag) || matches.includes('*')) return void res.status(304).end();
    const ifRange = req.headers['if-range'];
    let range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, head.size);
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${head.size}`);
      return sendError(res, 416, { message: 'The range is outside the file' });
    }
    if (range && range.start === 0 && range.end === head.size - 1) range = null;
    const stored = await this.store.get(key, range ?? undefined);
    if (!stored) return sendError(res, 404, { message: 'No such image file' });
    const { start, end } = stored.range;
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${start}-${end}/${head.size}`);
    }
    res.setHeader('Content-Length', String(head.size === 0 ? 0 : end - start + 1));
    if (req.method === 'HEAD') {
      for await (const _ of stored.body) break; // release the file
      return void res.end();
    }
    await pipeline(Readable.from(stored.body), res).catch(() => res.destroy());
  }
}
