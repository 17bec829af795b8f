import { ApiProperty } from '@nestjs/swagger';
import { ImageResponseDto } from '@rc/shared-http';

// Documentation of the media bodies (reference §3.1, §3.13). The presenter (media.presenter.ts)
// builds them; these classes only describe them for OpenAPI.

const BASE = 'https://repair.example/api/2.0';
const SITE = 'https://repair.example';

/** ImageWithMetadata (reference §3.1): the Image object and what the media manager shows of it. */
export class ImageWithMetadataResponseDto {
  @ApiProperty({ type: ImageResponseDto }) image!: ImageResponseDto;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The image this one was copied from (null for an upload)', example: null }) srcid!: number | null;
  @ApiProperty({ type: 'integer', description: 'Pixels (after any rotation)', example: 1600 }) width!: number;
  @ApiProperty({ type: 'integer', description: 'Pixels (after any rotation)', example: 1200 }) height!: number;
  @ApiProperty({ enum: ['ONE_ONE', 'FOUR_THREE', 'VARIABLE'], example: 'FOUR_THREE' }) ratio!: string;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], description: 'Always null', example: null }) markup!: null;
  @ApiProperty({
    description:
      'The EXIF tags kept (how the picture was taken: camera, lens, exposure; nothing about who, where or when), tag name → value; ' +
      'an empty list `[]` when none were kept (as the original service answers)',
    oneOf: [
      { type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'number' } }] } },
      { type: 'array', maxItems: 0, items: { type: 'string' } },
    ],
    example: { Make: 'Canon', Model: 'Canon EOS 80D', FNumber: 5.6 },
  })
  exif!: Record<string, string | number | boolean | number[]> | [];
}

/** The media-manager item of an image (reference §3.1, flat): the item of a rotate job. */
export class MediaItemResponseDto {
  @ApiProperty({ enum: ['GuideImage'] }) type!: 'GuideImage';
  @ApiProperty({ example: 'kX3pQ9zLm2VwR7tY' }) guid!: string;
  @ApiProperty({ type: 'integer', example: 42 }) imageid!: number;
  @ApiProperty({ type: 'integer', description: 'The image id again', example: 42 }) objectid!: number;
  @ApiProperty({ type: 'integer', nullable: true, enum: [null], description: 'Always null for an image', example: null }) documentid!: null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The image this one was copied from', example: null }) srcid!: number | null;
  @ApiProperty({ enum: ['ONE_ONE', 'FOUR_THREE', 'VARIABLE'], example: 'FOUR_THREE' }) ratio!: string;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'Null until the size is made', example: `${BASE}/igi/kX3pQ9zLm2VwR7tY.mini` }) mini!: string | null;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'Null until the size is made', example: `${BASE}/igi/kX3pQ9zLm2VwR7tY.thumbnail` }) thumbnail!: string | null;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'Null until the size is made', example: `${BASE}/igi/kX3pQ9zLm2VwR7tY.standard` }) standard!: string | null;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'Null until the size is made', example: `${BASE}/igi/kX3pQ9zLm2VwR7tY.medium` }) medium!: string | null;
  @ApiProperty({ format: 'uri', example: `${BASE}/igi/kX3pQ9zLm2VwR7tY.full` }) original!: string;
  @ApiProperty({ type: 'integer', example: 1600 }) width!: number;
  @ApiProperty({ type: 'integer', example: 1200 }) height!: number;
  @ApiProperty({ example: 'battery.jpg' }) filename!: string;
  @ApiProperty({ type: 'integer', description: 'UNIX seconds: uploaded', example: 1764000000 }) date!: number;
}

/** A rotate job (reference §2.3). */
export class RotateJobResponseDto {
  @ApiProperty({ enum: ['processing', 'complete', 'failed'], example: 'complete' }) status!: string;
  @ApiProperty({ type: MediaItemResponseDto, nullable: true, description: 'The image (null once it is deleted)' }) item!: MediaItemResponseDto | null;
}

/** The answer to a rotation request: the job to follow. */
export class RotateAcceptedResponseDto {
  @ApiProperty({ description: 'The job id (the one sent, or a new one): follow it at GET /user/media/images/rotate/{jobID}', example: 'Jb4mT7qW2xZc9LpR' }) jobID!: string;
}

/** One playable file of a video (reference §3.13 `encodings[]`): the upload itself (no transcoding). */
export class VideoEncodingResponseDto {
  @ApiProperty({ example: 'MP4_ORIGINAL' }) column!: string;
  @ApiProperty({ example: 'Original' }) label!: string;
  @ApiProperty({ type: 'integer', example: 1280 }) width!: number;
  @ApiProperty({ type: 'integer', example: 720 }) height!: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'RFC 6381 codecs, when known', example: null }) codecs!: string | null;
  @ApiProperty({ enum: ['video/mp4', 'video/webm', 'video/quicktime'], example: 'video/mp4' }) mime!: string;
  @ApiProperty({ enum: ['mp4', 'webm', 'mov'], example: 'mp4' }) format!: string;
  @ApiProperty({ format: 'uri', example: `${BASE}/media/files/videos/Vd8kQ2mZ0pLx7TcA.mp4` }) url!: string;
  @ApiProperty({ example: true }) always_generate!: boolean;
}

/** Video (reference §3.13). */
export class VideoResponseDto {
  @ApiProperty({ type: 'integer', example: 41 }) videoid!: number;
  @ApiProperty({ type: 'integer', description: 'The video id again (what a step names)', example: 41 }) objectid!: number;
  @ApiProperty({ example: 'Vd8kQ2mZ0pLx7TcA' }) guid!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The video this one was copied from', example: null }) srcid!: number | null;
  @ApiProperty({ example: 'battery-swap.mp4' }) filename!: string;
  @ApiProperty({ type: 'integer', description: 'Milliseconds (0 until read)', example: 93000 }) duration!: number;
  @ApiProperty({ type: 'integer', description: 'Pixels, as shown (0 until read)', example: 1280 }) width!: number;
  @ApiProperty({ type: 'integer', description: 'Pixels, as shown (0 until read)', example: 720 }) height!: number;
  @ApiProperty({ type: ImageWithMetadataResponseDto, nullable: true, description: 'The poster frame (null until it is made, or without a video decoder)' }) image!: ImageWithMetadataResponseDto | null;
  @ApiProperty({ type: [VideoEncodingResponseDto] }) encodings!: VideoEncodingResponseDto[];
}

/** Embed (media manager, reference §3.13). Provider HTML is never kept: `html` is null. */
export class EmbedResponseDto {
  @ApiProperty({ type: 'integer', example: 42 }) embedid!: number;
  @ApiProperty({ type: 'integer', description: 'The embed id again', example: 42 }) objectid!: number;
  @ApiProperty({ type: 'integer', nullable: true, enum: [null], description: 'Always null for an embed', example: null }) imageid!: null;
  @ApiProperty({ enum: ['GuideEmbedObject'] }) type!: 'GuideEmbedObject';
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: "The provider's thumbnail (the same URL in each size)", example: null }) mini!: string | null;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'As `mini`', example: null }) thumbnail!: string | null;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'As `mini`', example: null }) standard!: string | null;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'As `mini`', example: null }) medium!: string | null;
  @ApiProperty({ format: 'uri', description: 'The page embedded', example: 'https://vimeo.com/76979871' }) view_url!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 640 }) width!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 360 }) height!: number | null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], description: 'Always null', example: null }) html!: null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The title', example: 'Replacing the battery' }) filename!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: "The provider's name", example: 'Vimeo' }) provider!: string | null;
  @ApiProperty({ type: 'integer', description: 'UNIX seconds: added', example: 1764000000 }) date!: number;
}

/** Document (reference §3.13): a PDF. */
export class DocumentResponseDto {
  @ApiProperty({ type: 'integer', example: 12 }) documentid!: number;
  @ApiProperty({ example: 'Dq3xR8vN1mKp5ZwB' }) guid!: string;
  @ApiProperty({ example: 'service-manual.pdf' }) filename!: string;
  @ApiProperty({ example: 'Service manual' }) title!: string;
  @ApiProperty({ type: 'integer', description: 'Bytes', example: 482133 }) size!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The thumbnail image, when one was made', example: null }) thumbnailid!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: '`thumbnailid` again', example: null }) imageid!: number | null;
  @ApiProperty({ enum: ['application/pdf'] }) document_type!: 'application/pdf';
  @ApiProperty({ enum: ['pdf'] }) document_extension!: 'pdf';
  @ApiProperty({ enum: ['pdf'] }) document_group!: 'pdf';
  @ApiProperty({ type: 'string', nullable: true, enum: [null], description: 'Always null', example: null }) standard!: null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], description: 'Always null', example: null }) thumbnail!: null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], description: 'Always null', example: null }) mini!: null;
  @ApiProperty({ format: 'uri', example: `${SITE}/Document/Edit/Dq3xR8vN1mKp5ZwB` }) edit_url!: string;
  @ApiProperty({ format: 'uri', example: `${SITE}/Document/Dq3xR8vN1mKp5ZwB/service-manual.pdf` }) view_url!: string;
  @ApiProperty({ format: 'uri', example: `${BASE}/media/files/documents/Dq3xR8vN1mKp5ZwB.pdf` }) download_url!: string;
  @ApiProperty({ type: 'integer', description: 'UNIX seconds: uploaded', example: 1764000000 }) date!: number;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], description: 'Always null', example: null }) summary!: null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Page count, once read', example: 24 }) pages!: number | null;
  @ApiProperty({ enum: ['Document'] }) type!: 'Document';
}
