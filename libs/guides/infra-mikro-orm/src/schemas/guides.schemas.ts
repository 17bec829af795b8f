import { EntitySchema } from '@mikro-orm/core';

// Row schemas: the Guide aggregate owns a child table (its steps), so it is mapped by the
// repository from these rows rather than onto the domain class.

export interface GuideRow {
  id: number;
  revisionid: number;
  authorId: number;
  contributorIds: number[];
  title: string;
  category: string;
  subject: string;
  type: string;
  difficulty: string | null;
  summary: string;
  introduction: string;
  conclusion: string;
  timeRequiredMin: number;
  timeRequiredMax: number;
  imageId: number | null;
  parts: unknown;
  tools: unknown;
  prerequisites: number[];
  flags: string[];
  isPublic: boolean;
  locale: string;
  createdAt: Date;
  modifiedAt: Date;
  publishedAt: Date | null;
  deletedAt: Date | null;
}

export const GuideRowSchema = new EntitySchema<GuideRow>({
  name: 'GuideRow',
  tableName: 'guides',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    revisionid: { type: 'integer' },
    authorId: { type: 'integer', fieldName: 'author_id' },
    contributorIds: { type: 'integer[]', fieldName: 'contributor_ids' },
    title: { type: 'string', length: 255 },
    category: { type: 'string', length: 255 },
    subject: { type: 'string', length: 255 },
    type: { type: 'string', length: 16 },
    difficulty: { type: 'string', length: 16, nullable: true },
    summary: { type: 'text' },
    introduction: { type: 'text' },
    conclusion: { type: 'text' },
    timeRequiredMin: { type: 'integer', fieldName: 'time_required_min' },
    timeRequiredMax: { type: 'integer', fieldName: 'time_required_max' },
    imageId: { type: 'integer', nullable: true, fieldName: 'image_id' },
    parts: { type: 'jsonb' },
    tools: { type: 'jsonb' },
    prerequisites: { type: 'integer[]' },
    flags: { type: 'text[]' },
    isPublic: { type: 'boolean', fieldName: 'is_public' },
    locale: { type: 'string', length: 2 },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    modifiedAt: { type: 'datetime', fieldName: 'modified_at' },
    publishedAt: { type: 'datetime', nullable: true, fieldName: 'published_at' },
    deletedAt: { type: 'datetime', nullable: true, fieldName: 'deleted_at' },
  },
});

export interface GuideStepRow {
  id: number;
  guideId: number;
  orderby: number;
  revisionid: number;
  title: string;
  lines: unknown;
  media: unknown;
}

export const GuideStepRowSchema = new EntitySchema<GuideStepRow>({
  name: 'GuideStepRow',
  tableName: 'guide_steps',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    guideId: { type: 'integer', fieldName: 'guide_id' },
    orderby: { type: 'integer' },
    revisionid: { type: 'integer' },
    title: { type: 'string', length: 255 },
    lines: { type: 'jsonb' },
    media: { type: 'jsonb' },
  },
});

export interface GuideRevisionRow {
  guideId: number;
  revisionid: number;
  snapshot: unknown;
  editorId: number;
  createdAt: Date;
}

export const GuideRevisionRowSchema = new EntitySchema<GuideRevisionRow>({
  name: 'GuideRevisionRow',
  tableName: 'guide_revisions',
  properties: {
    guideId: { type: 'integer', primary: true, fieldName: 'guide_id' },
    revisionid: { type: 'integer', primary: true },
    snapshot: { type: 'jsonb' },
    editorId: { type: 'integer', fieldName: 'editor_id' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
  },
});

export interface GuideMarkRow {
  kind: string;
  userId: number;
  guideId: number;
  createdAt: Date;
}

export const GuideMarkRowSchema = new EntitySchema<GuideMarkRow>({
  name: 'GuideMarkRow',
  tableName: 'guide_marks',
  properties: {
    kind: { type: 'string', length: 12, primary: true },
    userId: { type: 'integer', primary: true, fieldName: 'user_id' },
    guideId: { type: 'integer', primary: true, fieldName: 'guide_id' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
  },
});

export interface GuideTagRow {
  guideId: number;
  tag: string;
  createdAt: Date;
}

export const GuideTagRowSchema = new EntitySchema<GuideTagRow>({
  name: 'GuideTagRow',
  tableName: 'guide_tags',
  properties: {
    guideId: { type: 'integer', primary: true, fieldName: 'guide_id' },
    tag: { type: 'string', length: 32, primary: true },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
  },
});

export interface GuideEventRow {
  id: string;
  type: string;
  payload: unknown;
  createdAt: Date;
  deliveredAt: Date | null;
}

export const GuideEventRowSchema = new EntitySchema<GuideEventRow>({
  name: 'GuideEventRow',
  tableName: 'guide_events_outbox',
  properties: {
    id: { type: 'bigint', primary: true },
    type: { type: 'string', length: 32 },
    payload: { type: 'jsonb' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    deliveredAt: { type: 'datetime', nullable: true, fieldName: 'delivered_at' },
  },
});

export const guidesSchemas = [GuideRowSchema, GuideStepRowSchema, GuideRevisionRowSchema, GuideMarkRowSchema, GuideTagRowSchema, GuideEventRowSchema];
export const guidesTables = ['guide_events_outbox', 'guide_tags', 'guide_marks', 'guide_revisions', 'guide_steps', 'guides'];
