import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { isRenditionName, MediaRepository, MediaStore } from '@rc/media-domain';
import { Endpoint, sendError } from '@rc/shared-http';
import { parseImageFile } from './media.presenter.js';
import { sendStoredFile } from './stored-file.js';

/** The bytes of an image file: the type its size was made in (JPEG, PNG, GIF, WEBP or AVIF), or the original's. */
const IMAGE_BYTES = { 'image/*': { schema: { type: 'string', format: 'binary' } } };

/** How long a size not made yet is worth waiting for before asking again. */
const RETRY_AFTER_SECONDS = 2;

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
  @ApiOkResponse({ description: 'The image bytes', content: IMAGE_BYTES })
  @ApiResponse({ status: 206, description: 'A byte range (one range: `Content-Range` says which)', content: IMAGE_BYTES })
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
    await sendStoredFile(req, res, this.store, image.renditionKey(size), { tag: `${parsed.guid}-${image.state.version}-${size}`, notFound: 'No such image file' });
  }
}
