import { EntitySchema } from '@mikro-orm/core';

export interface WikiPageRow {
  id: number;
  namespace: string;
  title: string;
  displayTitle: string;
  parentId: number | null;
  description: string;
  contents: string;
  imageId: number | null;
  flags: string[];
  info: unknown;
  revisionid: number;
  authorId: number | null;
  langid: string;
  createdAt: Date;
  modifiedAt: Date;
  deletedAt: Date | null;
}

/** `wiki_pages`: pages of the CATEGORY, WIKI, INFO and ITEM namespaces; categories form a tree by `parent_id`. */
export const WikiPageSchema = new EntitySchema<WikiPageRow>({
  name: 'WikiPage',
  tableName: 'wiki_pages',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    namespace: { type: 'string', length: 16 },
    title: { type: 'string', length: 255 },
    displayTitle: { type: 'string', length: 255, fieldName: 'display_title' },
    parentId: { type: 'integer', nullable: true, fieldName: 'parent_id' },
    description: { type: 'text' },
    contents: { type: 'text' },
    imageId: { type: 'integer', nullable: true, fieldName: 'image_id' },
    flags: { type: 'text[]' },
    info: { type: 'jsonb' },
    revisionid: { type: 'integer' },
    authorId: { type: 'integer', nullable: true, fieldName: 'author_id' },
    langid: { type: 'string', length: 2 },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
    modifiedAt: { type: 'datetime', fieldName: 'modified_at' },
    deletedAt: { type: 'datetime', nullable: true, fieldName: 'deleted_at' },
  },
});

export interface WikiRevisionRow {
  wikiId: number;
  revisionid: number;
  snapshot: unknown;
  editorId: number;
  createdAt: Date;
}

export const WikiRevisionSchema = new EntitySchema<WikiRevisionRow>({
  name: 'WikiRevision',
  tableName: 'wiki_revisions',
  properties: {
    wikiId: { type: 'integer', primary: true, fieldName: 'wiki_id' },
    revisionid: { type: 'integer', primary: true },
    snapshot: { type: 'jsonb' },
    editorId: { type: 'integer', fieldName: 'editor_id' },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
  },
});

export interface WikiTagRow {
  wikiId: number;
  tag: string;
  createdAt: Date;
}

export const WikiTagSchema = new EntitySchema<WikiTagRow>({
  name: 'WikiTag',
  tableName: 'wiki_tags',
  properties: {
    wikiId: { type: 'integer', primary: true, fieldName: 'wiki_id' },
    tag: { type: 'string', length: 32, primary: true },
    createdAt: { type: 'datetime', fieldName: 'created_at' },
  },
});

export const catalogSchemas = [WikiPageSchema, WikiRevisionSchema, WikiTagSchema];
export const catalogTables = ['wiki_tags', 'wiki_revisions', 'wiki_pages'];
