import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { GUID_PATTERN, MediaRepository, MediaStore } from '@rc/media-domain';
import { Endpoint, sendError } from '@rc/shared-http';
import { sendStoredFile } from './stored-file.js';

/** `<guid>.<extension>`, the name of a video or document file; `null` for anything else. */
export function parseMediaFile(file: string): { guid: string; extension: string } | null {
  const dot = file.lastIndexOf('.');
  const guid = file.slice(0, dot);
  const extension = file.slice(dot + 1);
  return dot > 0 && GUID_PATTERN.test(guid) && /^[a-z0-9]{2,5}$/.test(extension) ? { guid, extension } : null;
}

/** A video file's bytes: MP4, WebM or QuickTime, as uploaded. */
const VIDEO_BYTES = { 'video/*': { schema: { type: 'string', format: 'binary' } } };
/** A document file's bytes. */
const PDF_BYTES = { 'application/pdf': { schema: { type: 'string', format: 'binary' } } };

/**
 * The files of videos (their one encoding, as uploaded) and documents (PDFs, always downloaded as
 * attachments, never shown inline): `/media/files/videos/<guid>.<format>` and
 * `/media/files/documents/<guid>.pdf`. A file's bytes never change, so it is cached for a year.
 * Like `/igi`, the GUID is the key: unguessable, it is given only to those who may see the video
 * or document.
 */
@ApiTags('Media')
@Controller('media/files')
export class MediaFilesController {
  constructor(
    private readonly media: MediaRepository,
    private readonly store: MediaStore,
  ) {}

  @Get('videos/:file')
  @Endpoint({ summary: 'A video file', description: '`<guid>.<format>` (mp4, webm or mov): the one encoding, as uploaded. Byte ranges (206, 416), HEAD and 304.', errors: [404, 416], notFound: 'No such video file' })
  @ApiParam({ name: 'file', description: 'e.g. Vd8kQ2mZ0pLx7TcA.mp4' })
  @ApiOkResponse({ description: 'The video bytes', content: VIDEO_BYTES })
  @ApiResponse({ status: 206, description: 'A byte range (one range: `Content-Range` says which)', content: VIDEO_BYTES })
  async video(@Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const parsed = parseMediaFile(file);
    const video = parsed ? await this.media.findVideo({ guid: parsed.guid }) : null;
    const encoding = video?.state.encodings.find((e) => e.format === parsed?.extension);
    if (!video || video.isDeleted || !encoding) return sendError(res, 404, { message: 'No such video file' });
    await sendStoredFile(req, res, this.store, encoding.key, { tag: `${video.state.guid}-${encoding.column}`, notFound: 'No such video file' });
  }

  @Get('documents/:file')
  @Endpoint({ summary: 'A document file', description: '`<guid>.pdf`: downloaded (`Content-Disposition: attachment` with the uploaded file name). Byte ranges (206, 416), HEAD and 304.', errors: [404, 416], notFound: 'No such document file' })
  @ApiParam({ name: 'file', description: 'e.g. Dq3xR8vN1mKp5ZwB.pdf' })
  @ApiOkResponse({ description: 'The PDF bytes', content: PDF_BYTES })
  @ApiResponse({ status: 206, description: 'A byte range (one range: `Content-Range` says which)', content: PDF_BYTES })
  async document(@Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const parsed = parseMediaFile(file);
    const document = parsed?.extension === 'pdf' ? await this.media.findDocument({ guid: parsed.guid }) : null;
    if (!document || document.isDeleted) return sendError(res, 404, { message: 'No such document file' });
    const name = /\.pdf$/i.test(document.state.filename) ? document.state.filename : `${document.state.filename}.pdf`;
    await sendStoredFile(req, res, this.store, document.key, { tag: document.state.guid, attachment: name, notFound: 'No such document file' });
  }
}
