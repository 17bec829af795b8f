import { Body, Controller, Delete, Get, HttpCode, Inject, Param, PayloadTooLargeException, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Caller } from '@rc/identity-contracts';
import {
  AddEmbed,
  CopyImage,
  DEFAULT_MEDIA_SETTINGS,
  DeleteImages,
  GetDocument,
  GetImage,
  GetRotateJob,
  GetVideo,
  InvalidMediaParameterError,
  ListEmbeds,
  ListLibraryImages,
  ListVideos,
  parseImageIds,
  parseLibraryFilter,
  RequestImageRotation,
  UploadDocument,
  UploadImage,
  UploadTooLargeError,
  UploadVideo,
  type MediaViewer,
  type OEmbedFields,
} from '@rc/media-domain';
import { CurrentPrincipal, Endpoint, order } from '@rc/shared-http';
import { parsePage } from '@rc/shared-kernel';
import { MEDIA_SETTINGS } from './media-tokens.js';
import { DocumentResponseDto, EmbedResponseDto, ImageWithMetadataResponseDto, RotateAcceptedResponseDto, RotateJobResponseDto, VideoResponseDto } from './media.response.dto.js';
import { presentDocument, presentEmbed, presentImageWithMetadata, presentRotateJob, presentVideo, type MediaUrls } from './media.presenter.js';

const VIDEO = { description: 'Video (reference §3.13)', type: VideoResponseDto };
const DOCUMENT = { description: 'Document (reference §3.13)', type: DocumentResponseDto };
const EMBED = { description: 'Embed (reference §3.13)', type: EmbedResponseDto };

/** The 400 of a raw upload without its `file` parameter. */
const FILE_REQUIRED = 'file (the file name) is required';

/** The `file` query parameter every raw upload requires. */
function fileParameter(query: Query): string {
  const file = last(query['file']);
  if (typeof file !== 'string' || !file.trim()) throw new InvalidMediaParameterError(FILE_REQUIRED);
  return file;
}

/** The Content-Length the client declared, when it did: a larger upload is refused before it is read. */
function declaredBytes(req: Request): number | null {
  const length = req.headers['content-length'];
  return length && /^[0-9]{1,15}$/.test(length) ? Number(length) : null;
}

/** Runs a raw upload; a refused one closes the connection (its bytes may be unread) and a too large one is a 413. */
async function receiving<T>(req: Request, res: Response, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!req.complete) res.setHeader('Connection', 'close');
    if (error instanceof UploadTooLargeError) throw new PayloadTooLargeException(error.message);
    throw error;
  }
}

type Query = Record<string, unknown>;

/** The last value of a query parameter given once or more. */
const last = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);

const viewerOf = (caller: Caller | null): MediaViewer => ({ userId: caller?.userId ?? null, mayEditContent: false, isAdmin: caller?.role === 'Admin' });

/** The 400 of the older delete without its `imageids`. */
const IMAGEIDS_REQUIRED = 'imageids (comma-separated image ids) is required';

const IMAGE = { name: 'image', description: 'Image id or GUID' };
const IMAGE_WITH_METADATA = { description: 'ImageWithMetadata (reference §3.1)', type: ImageWithMetadataResponseDto };

export interface MediaHttpSettings extends MediaUrls {
  /** The site's public base URL (documents' view and edit URLs). */
  readonly publicBaseUrl: string;
}

/** The caller's media library (reference §2.3) and media lookups (§2.9). */
@ApiTags('Media')
@Controller()
export class MediaController {
  constructor(
    @Inject(MEDIA_SETTINGS) private readonly settings: MediaHttpSettings,
    private readonly uploadImage: UploadImage,
    private readonly listImages: ListLibraryImages,
    private readonly getImage: GetImage,
    private readonly copyImage: CopyImage,
    private readonly deleteImages: DeleteImages,
    private readonly requestRotation: RequestImageRotation,
    private readonly getRotateJob: GetRotateJob,
    private readonly listVideos: ListVideos,
    private readonly listEmbeds: ListEmbeds,
    private readonly getVideo: GetVideo,
    private readonly getDocument: GetDocument,
    private readonly uploadVideo: UploadVideo,
    private readonly uploadDocument: UploadDocument,
    private readonly addEmbed: AddEmbed,
  ) {}

  @Post('user/media/images')
  @Endpoint({
    summary: 'Upload an image',
    description:
      'The body is the raw image bytes, with any or no Content-Type. `file` names the file; its extension says which type the bytes must be ' +
      '(JPEG, PNG, GIF, WEBP, AVIF, TIFF; the bytes decide, and must agree). At least 50×50 pixels, at most the configured pixels and bytes ' +
      '(413 when the upload is larger than allowed). The image is answered at once; its sizes are made in the background and appear in the ' +
      'Image object as they are made (`original` is always listed).',
    token: true,
    errors: [400, 413, 422, 429],
    badRequest: FILE_REQUIRED,
    tooLarge: `The upload is larger than ${DEFAULT_MEDIA_SETTINGS.maxUploadBytes} bytes`,
    invalid: { field: 'file', message: 'The file is not an image' },
  })
  @ApiQuery({ name: 'file', required: true, type: String, description: 'File name, e.g. photo.jpg' })
  @ApiQuery({ name: 'cropToRatio', required: false, enum: ['ONE_ONE', 'FOUR_THREE'] })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ description: 'The image bytes', schema: { type: 'string', format: 'binary' } })
  @ApiOkResponse(IMAGE_WITH_METADATA)
  @HttpCode(200)
  async upload(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Query() query: Query, @CurrentPrincipal() caller: Caller) {
    const filename = fileParameter(query);
    const image = await receiving(req, res, () =>
      this.uploadImage.execute({ ownerId: caller.userId, filename, cropToRatio: last(query['cropToRatio']) as string | undefined, body: req, declaredBytes: declaredBytes(req) }),
    );
    return presentImageWithMetadata(image, this.settings);
  }

  @Post('user/media/videos')
  @Endpoint({
    summary: 'Upload a video',
    description:
      'The body is the raw video bytes, with any or no Content-Type. `file` names the file: its extension (mp4, m4v, webm, mov) says which ' +
      'container the bytes must be (MP4, WebM or QuickTime; the bytes decide, and must agree). At most the configured video bytes (413 beyond). ' +
      'The video is kept as its one encoding, as uploaded (no transcoding). Its poster (`image`), duration and size are read in the background ' +
      'and appear in the Video object once read.',
    token: true,
    errors: [400, 413, 422, 429],
    badRequest: FILE_REQUIRED,
    tooLarge: `The upload is larger than ${DEFAULT_MEDIA_SETTINGS.maxVideoBytes} bytes`,
    invalid: { field: 'file', message: 'The file is not an MP4, WebM or QuickTime video' },
  })
  @ApiQuery({ name: 'file', required: true, type: String, description: 'File name, e.g. battery-swap.mp4' })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ description: 'The video bytes', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 201, ...VIDEO })
  @HttpCode(201)
  async uploadVideoFile(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Query() query: Query, @CurrentPrincipal() caller: Caller) {
    const filename = fileParameter(query);
    const video = await receiving(req, res, () => this.uploadVideo.execute({ ownerId: caller.userId, filename, body: req, declaredBytes: declaredBytes(req) }));
    return presentVideo({ video, poster: null }, this.settings);
  }

  @Post('user/media/documents')
  @Endpoint({
    summary: 'Upload a document',
    description:
      'The body is the raw bytes of a PDF (told by its bytes, whatever its name), with any or no Content-Type. `file` names the file; ' +
      '`title` defaults to the file name without `.pdf`. At most the configured document bytes (413 beyond).',
    token: true,
    errors: [400, 413, 422, 429],
    badRequest: FILE_REQUIRED,
    tooLarge: `The upload is larger than ${DEFAULT_MEDIA_SETTINGS.maxDocumentBytes} bytes`,
    invalid: { field: 'file', message: 'The file is not a PDF document' },
  })
  @ApiQuery({ name: 'file', required: true, type: String, description: 'File name, e.g. service-manual.pdf' })
  @ApiQuery({ name: 'title', required: false, type: String, description: 'Plain text, at most 255 characters' })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ description: 'The PDF bytes', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 201, ...DOCUMENT })
  @HttpCode(201)
  async uploadDocumentFile(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Query() query: Query, @CurrentPrincipal() caller: Caller) {
    const filename = fileParameter(query);
    const document = await receiving(req, res, () =>
      this.uploadDocument.execute({ ownerId: caller.userId, filename, title: last(query['title']), body: req, declaredBytes: declaredBytes(req) }),
    );
    return presentDocument(document, this.settings, this.settings.publicBaseUrl);
  }

  @Post('user/media/embeds')
  @Endpoint({
    summary: 'Add an embed',
    description:
      'Body `{url}`: the page to embed (http or https), plus optional oEmbed fields (`type` video|rich|photo|link, `title`, `provider_name`, ' +
      '`provider_url`, `author_name`, `author_url`, `width`, `height`, `thumbnail_url`). For YouTube and Vimeo pages the provider fields are ' +
      'known from the URL; no URL is fetched, and provider HTML is never kept (`html` is null).',
    token: true,
    errors: [422, 429],
    invalid: { field: 'url', message: 'url must be an http or https URL' },
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['url'],
      properties: {
        url: { type: 'string', format: 'uri', example: 'https://vimeo.com/76979871' },
        type: { type: 'string', enum: ['video', 'rich', 'photo', 'link'], example: 'video' },
        title: { type: 'string', maxLength: 255, example: 'Replacing the battery' },
        width: { type: 'integer', example: 640 },
        height: { type: 'integer', example: 360 },
      },
    },
  })
  @ApiResponse({ status: 201, ...EMBED })
  @HttpCode(201)
  async addEmbedFromUrl(@Body() body: unknown, @CurrentPrincipal() caller: Caller) {
    const { url, ...fields } = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    return presentEmbed(await this.addEmbed.execute({ ownerId: caller.userId, url, fields: fields as OEmbedFields }));
  }

  @Get('user/media/images')
  @Endpoint({ summary: "The caller's images", description: 'Newest first. `ratio` ALL (default), ONE_ONE, FOUR_THREE or VARIABLE; `minWidth`, `minHeight` in pixels.', token: true })
  @ApiQuery({ name: 'ratio', required: false, enum: ['ALL', 'ONE_ONE', 'FOUR_THREE', 'VARIABLE'] })
  @ApiQuery({ name: 'minWidth', required: false, type: 'integer' }) @ApiQuery({ name: 'minHeight', required: false, type: 'integer' })
  @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ ...IMAGE_WITH_METADATA, isArray: true })
  async list(@Query() query: Query, @CurrentPrincipal() caller: Caller) {
    const images = await this.listImages.execute({ ownerId: caller.userId, filter: parseLibraryFilter(query), page: parsePage(query) });
    return images.map((image) => presentImageWithMetadata(image, this.settings));
  }

  @Get('user/media/images/rotate/:jobID')
  @Endpoint({ summary: 'A rotate job', description: '`{status: processing|complete|failed, item}`; another user\'s job is a 404.', token: true, errors: [404], notFound: 'Rotate job not found' })
  @ApiParam({ name: 'jobID', schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' }, description: 'The job id the rotation answered (a name of up to 64 letters, digits, `_.:-`, not a number id)', example: 'rotate-42-1' })
  @ApiOkResponse({ description: 'The job', type: RotateJobResponseDto })
  async rotateJob(@Param('jobID') jobId: string, @CurrentPrincipal() caller: Caller) {
    const { job, image } = await this.getRotateJob.execute({ userId: caller.userId, jobId });
    return presentRotateJob(job, image, this.settings);
  }

  @Post('user/media/images/:image')
  @Endpoint({ summary: 'Copy an image into your library', description: 'Any image you may view; the copy has its own id and GUID, `srcid` the source.', token: true, errors: [403, 404, 429], notFound: 'Image not found', forbidden: 'You do not have permission to view this image' })
  @ApiParam(IMAGE) @ApiOkResponse(IMAGE_WITH_METADATA)
  @HttpCode(200)
  async copy(@Param('image') ref: string, @CurrentPrincipal() caller: Caller) {
    const image = await this.copyImage.execute({ viewer: { ...viewerOf(caller), userId: caller.userId }, ref });
    return presentImageWithMetadata(image, this.settings);
  }

  @Post('user/media/images/:image/rotate')
  @Endpoint({
    summary: 'Rotate an image',
    description: 'Body `{degrees: 90|180|270, jobID?}`: the rotation runs in the background (202 `{jobID}`; follow it at GET /user/media/images/rotate/{jobID}). A jobID you already used is a 409.',
    token: true,
    errors: [404, 409, 422],
    notFound: 'Image not found',
    invalid: { field: 'degrees', message: 'degrees must be 90, 180 or 270' },
  })
  @ApiParam(IMAGE)
  @ApiBody({ schema: { type: 'object', properties: { degrees: { type: 'integer', enum: [90, 180, 270] }, jobID: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$', description: 'A job id of your choosing (a new one is made when left out)', example: 'rotate-42-1' } }, required: ['degrees'] } })
  @ApiResponse({ status: 202, description: 'Accepted: the job to follow', type: RotateAcceptedResponseDto })
  @HttpCode(202)
  async rotate(@Param('image') ref: string, @Body() body: unknown, @CurrentPrincipal() caller: Caller) {
    const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const job = await this.requestRotation.execute({ ownerId: caller.userId, ref, degrees: fields['degrees'], jobId: fields['jobID'] });
    return { jobID: job.state.jobId };
  }

  @Delete('user/media/images')
  @Endpoint({ summary: 'Delete images (older form)', description: '`imageids`: comma-separated ids (at most 1000); unknown ids and other users\' are skipped.', token: true, errors: [400], badRequest: IMAGEIDS_REQUIRED })
  @ApiQuery({ name: 'imageids', required: true, type: String })
  @ApiResponse({ status: 204, description: 'Deleted' })
  @HttpCode(204)
  async deleteByQuery(@Query() query: Query, @CurrentPrincipal() caller: Caller): Promise<void> {
    const raw = last(query['imageids']);
    if (typeof raw !== 'string' || !raw) throw new InvalidMediaParameterError(IMAGEIDS_REQUIRED);
    await this.deleteImages.execute({ ownerId: caller.userId, ids: parseImageIds(raw) });
  }

  @Delete('user/media/images/:image')
  @Endpoint({ summary: 'Delete images', description: 'Comma-separated ids (at most 1000); unknown ids and other users\' are skipped. Content using an image keeps showing it.', token: true, errors: [400], badRequest: "'abc' is not an image id" })
  @ApiParam({ name: 'image', description: 'Comma-separated image ids (the reference names this parameter `image`)' })
  @ApiResponse({ status: 204, description: 'Deleted' })
  @HttpCode(204)
  async delete(@Param('image') raw: string, @CurrentPrincipal() caller: Caller): Promise<void> {
    await this.deleteImages.execute({ ownerId: caller.userId, ids: parseImageIds(raw) });
  }

  @Get('user/media/videos')
  @Endpoint({ summary: "The caller's videos", description: 'By id (`order` ASC or DESC), paged.', token: true })
  @ApiQuery({ name: 'order', required: false, enum: ['ASC', 'DESC'] }) @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ ...VIDEO, isArray: true })
  async videos(@Query() query: Query, @CurrentPrincipal() caller: Caller) {
    const videos = await this.listVideos.execute({ ownerId: caller.userId, order: order(query), page: parsePage(query) });
    return videos.map((video) => presentVideo(video, this.settings));
  }

  @Get('user/media/embeds')
  @Endpoint({ summary: "The caller's embeds (legacy)", description: 'Newest first, paged.', token: true })
  @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ ...EMBED, isArray: true })
  async embeds(@Query() query: Query, @CurrentPrincipal() caller: Caller) {
    return (await this.listEmbeds.execute({ ownerId: caller.userId, page: parsePage(query) })).map(presentEmbed);
  }

  @Get('media/images/:image')
  @Endpoint({ summary: 'An image', description: 'Visible to its owner, Admins, and anyone who may view content showing it; otherwise 403.', errors: [403, 404], notFound: 'Image not found', forbidden: 'You do not have permission to view this image' })
  @ApiParam(IMAGE) @ApiOkResponse(IMAGE_WITH_METADATA)
  async image(@Param('image') ref: string, @CurrentPrincipal() caller: Caller | null) {
    return presentImageWithMetadata(await this.getImage.execute({ viewer: viewerOf(caller), ref }), this.settings);
  }

  @Get('media/videos/:video')
  @Endpoint({ summary: 'A video', description: 'Same visibility as images.', errors: [403, 404], notFound: 'Video not found', forbidden: 'You do not have permission to view this video' })
  @ApiParam({ name: 'video', description: 'Video id or GUID' }) @ApiOkResponse(VIDEO)
  async video(@Param('video') ref: string, @CurrentPrincipal() caller: Caller | null) {
    return presentVideo(await this.getVideo.execute({ viewer: viewerOf(caller), ref }), this.settings);
  }

  @Get('media/documents/:document')
  @Endpoint({ summary: 'A document', description: 'Visible to its owner, Admins, and anyone who may view content it is attached to; otherwise 403.', errors: [403, 404], notFound: 'Document not found', forbidden: 'You do not have permission to view this document' })
  @ApiParam({ name: 'document', description: 'Document id or GUID' }) @ApiOkResponse(DOCUMENT)
  async document(@Param('document') ref: string, @CurrentPrincipal() caller: Caller | null) {
    return presentDocument(await this.getDocument.execute({ viewer: viewerOf(caller), ref }), this.settings, this.settings.publicBaseUrl);
  }
}
