import { EntitySchema } from '@mikro-orm/core';

// Row schemas: the repository maps aggregates with SQL (the Image owns a child table of sizes);
// these declare the tables for the ORM's schema checks and migrations tooling.

const dates = {
  createdAt: { type: 'datetime', fieldName: 'created_at' },
  deletedAt: { type: 'datetime', nullable: true, fieldName: 'deleted_at' },
} as const;

export const MediaImageRowSchema = new EntitySchema<Record<string, unknown>>({
  name: 'MediaImageRow',
  tableName: 'media_images',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    guid: { type: 'string', length: 16, unique: true },
    ownerId: { type: 'integer', fieldName: 'owner_id' },
    srcId: { type: 'integer', nullable: true, fieldName: 'src_id' },
    filename: { type: 'string', length: 255 },
    format: { type: 'string', length: 8 },
    hasAlpha: { type: 'boolean', fieldName: 'has_alpha' },
    byteSize: { type: 'bigint', fieldName: 'byte_size' },
    sourceWidth: { type: 'integer', fieldName: 'source_width' },
    sourceHeight: { type: 'integer', fieldName: 'source_height' },
    orientation: { type: 'smallint' },
    crop: { type: 'jsonb', nullable: true },
    rotation: { type: 'smallint' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    ratio: { type: 'string', length: 10 },
    version: { type: 'integer' },
    exif: { type: 'jsonb' },
    status: { type: 'string', length: 10 },
    ...dates,
    purgedAt: { type: 'datetime', nullable: true, fieldName: 'purged_at' },
    /** The names of the sizes made of the current version (see the repository's SHOWN_IMAGES). */
    shownSizes: { type: 'string[]', columnType: 'varchar(10)[]', defaultRaw: `'{}'`, fieldName: 'shown_sizes' },
  },
});

export const MediaImageSizeRowSchema = new EntitySchema<Record<string, unknown>>({
  name: 'MediaImageSizeRow',
  tableName: 'media_image_sizes',
  properties: {
    imageId: { type: 'integer', primary: true, fieldName: 'image_id' },
    size: { type: 'string', length: 10, primary: true },
    version: { type: 'integer' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    format: { type: 'string', length: 8 },
    byteSize: { type: 'bigint', fieldName: 'byte_size' },
  },
});

export const MediaVideoRowSchema = new EntitySchema<Record<string, unknown>>({
  name: 'MediaVideoRow',
  tableName: 'media_videos',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    guid: { type: 'string', length: 16, unique: true },
    ownerId: { type: 'integer', fieldName: 'owner_id' },
    srcId: { type: 'integer', nullable: true, fieldName: 'src_id' },
    filename: { type: 'string', length: 255 },
    durationMs: { type: 'integer', fieldName: 'duration_ms' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    posterImageId: { type: 'integer', nullable: true, fieldName: 'poster_image_id' },
    encodings: { type: 'jsonb' },
    posterStatus: { type: 'string', length: 12, fieldName: 'poster_status', default: 'processing' },
    ...dates,
  },
});

export const MediaEmbedRowSchema = new EntitySchema<Record<string, unknown>>({
  name: 'MediaEmbedRow',
  tableName: 'media_embeds',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    ownerId: { type: 'integer', fieldName: 'owner_id' },
    url: { type: 'string', length: 2048 },
    type: { type: 'string', length: 8 },
    title: { type: 'string', length: 255, nullable: true },
    providerName: { type: 'string', length: 255, nullable: true, fieldName: 'provider_name' },
    providerUrl: { type: 'string', length: 2048, nullable: true, fieldName: 'provider_url' },
    authorName: { type: 'string', length: 255, nullable: true, fieldName: 'author_name' },
    authorUrl: { type: 'string', length: 2048, nullable: true, fieldName: 'author_url' },
    width: { type: 'integer', nullable: true },
    height: { type: 'integer', nullable: true },
    thumbnailUrl: { type: 'string', length: 2048, nullable: true, fieldName: 'thumbnail_url' },
    ...dates,
  },
});

export const MediaDocumentRowSchema = new EntitySchema<Record<string, unknown>>({
  name: 'MediaDocumentRow',
  tableName: 'media_documents',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    guid: { type: 'string', length: 16, unique: true },
    ownerId: { type: 'integer', fieldName: 'owner_id' },
    filename: { type: 'string', length: 255 },
    title: { type: 'string', length: 255 },
    byteSize: { type: 'bigint', fieldName: 'byte_size' },
    pages: { type: 'integer', nullable: true },
    thumbnailImageId: { type: 'integer', nullable: true, fieldName: 'thumbnail_image_id' },
    ...dates,
  },
});

export const MediaUsageRowSchema = new EntitySchema<Record<string, unknown>>({
  name: 'MediaUsageRow',
  tableName: 'media_usages',
  properties: {
    kind: { type: 'string', length: 8, primary: true },
    mediaId: { type: 'integer', primary: true, fieldName: 'media_id' },
    context: { type: 'string', length: 32, primary: true },
    ref: { type: 'string', length: 64, primary: true },
    public: { type: 'boolean' },
    viewerIds: { type: 'integer[]', fieldName: 'viewer_ids' },
  },
});

export const MediaRotateJobRowSchema = new EntitySchema<Record<string, unknown>>({
  name: 'MediaRotateJobRow',
  tableName: 'media_rotate_jobs',
  properties: {
    userId: { type: 'integer', primary: true, fieldName: 'user_id' },
    jobId: { type: 'string', length: 64, primary: true, fieldName: 'job_id' },
    imageId: { type: 'integer', fieldName: 'image_id' },
    degrees: { type: 'smallint' },
    status: { type: 'string', length: 10 },
    appliedVersion: { type: 'integer', nullable: true, fieldName: 'applied_version' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    finishedAt: { type: 'datetime', nullable: true, fieldName: 'finished_at' },
  },
});

export const MediaUploadAllowanceRowSchema = new EntitySchema<Record<string, unknown>>({
  name: 'MediaUploadAllowanceRow',
  tableName: 'media_upload_allowances',
  properties: {
    userId: { type: 'integer', primary: true, autoincrement: false, fieldName: 'user_id' },
    windowStart: { type: 'datetime', fieldName: 'window_start' },
    uploads: { type: 'integer' },
    storedBytes: { type: 'bigint', fieldName: 'stored_bytes' },
  },
});

export const mediaSchemas = [
  MediaImageRowSchema,
  MediaImageSizeRowSchema,
  MediaVideoRowSchema,
  MediaEmbedRowSchema,
  MediaDocumentRowSchema,
  MediaUsageRowSchema,
  MediaRotateJobRowSchema,
  MediaUploadAllowanceRowSchema,
];

/** In an order TRUNCATE accepts. */
export const mediaTables = [
  'media_rotate_jobs',
  'media_usages',
  'media_upload_allowances',
  'media_documents',
  'media_videos',
  'media_embeds',
  'media_image_sizes',
  'media_images',
];
