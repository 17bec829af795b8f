import type { EntityManager } from '@mikro-orm/postgresql';
import { Comment, CommentQueries, CommentRepository, type CommentContext, type CommentId, type CommentListFilter, type CommentState } from '@rc/community-domain';
import { PreparedStatement, queryPrepared } from '@rc/shared-infra-mikro-orm';
import type { Page } from '@rc/shared-kernel';
import { intArray, toDate, toDateOrNull } from './sql.js';

interface CommentSqlRow {
  id: number;
  context: string;
  context_id: number;
  guide_id: number | null;
  parent_id: number | null;
  author_id: number;
  text: string;
  langid: string | null;
  created_at: Date | string;
  modified_at: Date | string | null;
  deleted_at: Date | string | null;
}

const COLUMNS = 'id, context, context_id, guide_id, parent_id, author_id, text, langid, created_at, modified_at, deleted_at';

/** A comment and its live replies (a reply has none: threads are one level deep): `?`, `?` the comment id. */
const THREAD = new PreparedStatement(`SELECT ${COLUMNS} FROM comments WHERE id = ? OR (parent_id = ? AND deleted_at IS NULL) ORDER BY id`);

const stateOf = (r: CommentSqlRow): CommentState => ({
  id: r.id as CommentId,
  context: r.context as CommentContext,
  contextId: r.context_id,
  guideId: r.guide_id,
  parentId: r.parent_id as CommentId | null,
  authorId: r.author_id,
  text: r.text,
  langid: r.langid,
  createdAt: toDate(r.created_at),
  modifiedAt: toDateOrNull(r.modified_at),
  deletedAt: toDateOrNull(r.deleted_at),
});

/** Comments, written with SQL inside the caller's unit of work. */
export class MikroOrmCommentRepository extends CommentRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async nextId(): Promise<CommentId> {
    const [row] = await this.em.execute<{ id: number }[]>(`SELECT nextval('comments_id_seq')::int AS id`);
    return row!.id as CommentId;
  }

  async find(id: CommentId): Promise<CommentState | null> {
    const [row] = await this.em.execute<CommentSqlRow[]>(`SELECT ${COLUMNS} FROM comments WHERE id = ?`, [id]);
    return row ? stateOf(row) : null;
  }

  async findForUpdate(id: CommentId): Promise<Comment | null> {
    const [row] = await this.em.execute<CommentSqlRow[]>(`SELECT ${COLUMNS} FROM comments WHERE id = ? FOR UPDATE`, [id]);
    return row ? Comment.restore(stateOf(row)) : null;
  }

  async save(comment: Comment): Promise<void> {
    if (!comment.hasChanges) return;
    const s = comment.state;
    if (comment.isNew) {
      await this.em.execute(`INSERT INTO comments (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        s.id, s.context, s.contextId, s.guideId, s.parentId, s.authorId, s.text, s.langid, s.createdAt, s.modifiedAt, s.deletedAt,
      ]);
    } else {
      await this.em.execute('UPDATE comments SET text = ?, modified_at = ?, deleted_at = ? WHERE id = ?', [s.text, s.modifiedAt, s.deletedAt, s.id]);
    }
    comment.markStored();
  }
}

/** Reads of comments, each one SQL statement. */
export class MikroOrmCommentQueries extends CommentQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(filter: CommentListFilter, page: Page): Promise<CommentState[]> {
    const where = ['deleted_at IS NULL'];
    const params: unknown[] = [];
    if (filter.context) {
      where.push('context = ?');
      params.push(filter.context);
    }
    if (filter.langid) {
      where.push('langid = ?');
      params.push(filter.langid);
    }
    if (filter.modifiedSince) {
      where.push('modified_at >= ?');
      params.push(filter.modifiedSince);
    }
    const direction = filter.order === 'DESC' ? 'DESC' : 'ASC';
    const rows = await this.em.execute<CommentSqlRow[]>(`SELECT ${COLUMNS} FROM comments WHERE ${where.join(' AND ')} ORDER BY id ${direction} LIMIT ? OFFSET ?`, [
      ...params,
      page.limit,
      page.offset,
    ]);
    return rows.map(stateOf);
  }

  async onTargets(targets: readonly { context: CommentContext; ids: readonly number[] }[]): Promise<CommentState[]> {
    const wanted = targets.filter((t) => t.ids.length);
    if (!wanted.length) return [];
    const clauses = wanted.map((t) => `(context = ? AND context_id = ANY(${intArray(t.ids).sql}))`);
    const params = wanted.flatMap((t) => [t.context, intArray(t.ids).param]);
    const rows = await this.em.execute<CommentSqlRow[]>(`SELECT ${COLUMNS} FROM comments WHERE ${clauses.join(' OR ')} ORDER BY id`, params);
    return rows.map(stateOf);
  }

  async repliesTo(parentIds: readonly CommentId[]): Promise<CommentState[]> {
    if (!parentIds.length) return [];
    const ids = intArray(parentIds);
    const rows = await this.em.execute<CommentSqlRow[]>(`SELECT ${COLUMNS} FROM comments WHERE parent_id = ANY(${ids.sql}) AND deleted_at IS NULL ORDER BY id`, [ids.param]);
    return rows.map(stateOf);
  }

  async thread(id: CommentId): Promise<{ comment: CommentState; replies: CommentState[] } | null> {
    // One statement, prepared: read for every thread an anonymous reader asks for first.
    const rows = (await queryPrepared<CommentSqlRow>(this.em, THREAD, [id, id])).map(stateOf);
    const comment = rows.find((row) => row.id === id);
    if (!comment) return null;
    return { comment, replies: comment.parentId === null ? rows.filter((row) => row.parentId === id) : [] };
  }
}
