import { EntitySchema } from '@mikro-orm/core';

// Row schemas: the repositories map the domain classes from these rows (and write with SQL).

export interface CommentRow {
  id: number;
  context: string;
  contextId: number;
  guideId: number | null;
  parentId: number | null;
  authorId: number;
  text: string;
  langid: string | null;
  createdAt: Date;
  modifiedAt: Date | null;
  deletedAt: Date | null;
}

export const CommentRowSchema = new EntitySchema<CommentRow>({
  name: 'CommentRow',
  tableName: 'comments',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    context: { type: 'string', length: 8 },
    contextId: { type: 'integer', fieldName: 'context_id' },
    guideId: { type: 'integer', nullable: true, fieldName: 'guide_id' },
    parentId: { type: 'integer', nullable: true, fieldName: 'parent_id' },
    authorId: { type: 'integer', fieldName: 'author_id' },
    text: { type: 'text' },
    langid: { type: 'string', length: 2, nullable: true },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    modifiedAt: { type: 'datetime', nullable: true, fieldName: 'modified_at' },
    deletedAt: { type: 'datetime', nullable: true, fieldName: 'deleted_at' },
  },
});

export interface StoryRow {
  id: number;
  authorId: number;
  langid: string;
  status: string;
  title: string;
  intro: string;
  body: string;
  conclusion: string;
  imageIds: number[];
  guideIds: number[];
  products: string[];
  difficulty: string | null;
  timeTaken: number | null;
  createdAt: Date;
  modifiedAt: Date;
}

export const StoryRowSchema = new EntitySchema<StoryRow>({
  name: 'StoryRow',
  tableName: 'stories',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    authorId: { type: 'integer', fieldName: 'author_id' },
    langid: { type: 'string', length: 2 },
    status: { type: 'string', length: 8 },
    title: { type: 'string', length: 255 },
    intro: { type: 'text' },
    body: { type: 'text' },
    conclusion: { type: 'text' },
    imageIds: { type: 'integer[]', fieldName: 'image_ids' },
    guideIds: { type: 'integer[]', fieldName: 'guide_ids' },
    products: { type: 'text[]' },
    difficulty: { type: 'string', length: 16, nullable: true },
    timeTaken: { type: 'integer', nullable: true, fieldName: 'time_taken' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    modifiedAt: { type: 'datetime', fieldName: 'modified_at' },
  },
});

export const communitySchemas = [CommentRowSchema, StoryRowSchema];
/** In an order TRUNCATE accepts. */
export const communityTables = ['comments', 'stories'];
