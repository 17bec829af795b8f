import type { EntityManager } from '@mikro-orm/postgresql';
import { Story, StoryQueries, StoryRepository, type StoryId, type StoryListFilter, type StoryState } from '@rc/community-domain';
import type { Page } from '@rc/shared-kernel';
import { intArray, textArray, toDate } from './sql.js';

interface StorySqlRow {
  id: number;
  author_id: number;
  langid: string;
  status: string;
  title: string;
  intro: string;
  body: string;
  conclusion: string;
  image_ids: number[];
  guide_ids: number[];
  products: string[];
  difficulty: string | null;
  time_taken: number | null;
  created_at: Date | string;
  modified_at: Date | string;
}

const COLUMNS = 'id, author_id, langid, status, title, intro, body, conclusion, image_ids, guide_ids, products, difficulty, time_taken, created_at, modified_at';

const stateOf = (r: StorySqlRow): StoryState => ({
  id: r.id as StoryId,
  authorId: r.author_id,
  langid: r.langid,
  status: r.status === 'deleted' ? 'deleted' : 'open',
  title: r.title,
  intro: r.intro,
  body: r.body,
  conclusion: r.conclusion,
  imageIds: r.image_ids,
  guideIds: r.guide_ids,
  products: r.products,
  difficulty: r.difficulty,
  timeTaken: r.time_taken,
  createdAt: toDate(r.created_at),
  modifiedAt: toDate(r.modified_at),
});

/** A lock key per author for the one-story-per-minute rule (its own key space: the first key). */
const STORY_POST_LOCK = 0x53545259;

export class MikroOrmStoryRepository extends StoryRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async nextId(): Promise<StoryId> {
    const [row] = await this.em.execute<{ id: number }[]>(`SELECT nextval('stories_id_seq')::int AS id`);
    return row!.id as StoryId;
  }

  async find(id: StoryId): Promise<StoryState | null> {
    const [row] = await this.em.execute<StorySqlRow[]>(`SELECT ${COLUMNS} FROM stories WHERE id = ?`, [id]);
    return row ? stateOf(row) : null;
  }

  async findForUpdate(id: StoryId): Promise<Story | null> {
    const [row] = await this.em.execute<StorySqlRow[]>(`SELECT ${COLUMNS} FROM stories WHERE id = ? FOR UPDATE`, [id]);
    return row ? Story.restore(stateOf(row)) : null;
  }

  async lockAuthor(userId: number): Promise<void> {
    await this.em.execute('SELECT pg_advisory_xact_lock(?, ?)', [STORY_POST_LOCK, userId]);
  }

  async latestBy(userId: number): Promise<StoryState | null> {
    const [row] = await this.em.execute<StorySqlRow[]>(`SELECT ${COLUMNS} FROM stories WHERE author_id = ? ORDER BY id DESC LIMIT 1`, [userId]);
    return row ? stateOf(row) : null;
  }

  async save(story: Story): Promise<void> {
    if (!story.hasChanges) return;
    const s = story.state;
    const images = intArray(s.imageIds);
    const guides = intArray(s.guideIds);
    const products = textArray(s.products);
    await this.em.execute(
      `INSERT INTO stories (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ${images.sql}, ${guides.sql}, ${products.sql}, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, title = excluded.title, intro = excluded.intro, body = excluded.body,
         conclusion = excluded.conclusion, image_ids = excluded.image_ids, guide_ids = excluded.guide_ids, products = excluded.products,
         difficulty = excluded.difficulty, time_taken = excluded.time_taken, modified_at = excluded.modified_at`,
      [s.id, s.authorId, s.langid, s.status, s.title, s.intro, s.body, s.conclusion, images.param, guides.param, products.param, s.difficulty, s.timeTaken, s.createdAt, s.modifiedAt],
    );
    story.markStored();
  }
}

export class MikroOrmStoryQueries extends StoryQueries {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(filter: StoryListFilter, page: Page): Promise<StoryState[]> {
    const where = [`status = 'open'`];
    const params: unknown[] = [];
    if (filter.product) {
      where.push('products @> ARRAY[?]::text[]');
      params.push(filter.product);
    }
    if (filter.guideId) {
      where.push('guide_ids @> ARRAY[?]::int[]');
      params.push(filter.guideId);
    }
    if (filter.requireImages) where.push('cardinality(image_ids) > 0');
    const direction = filter.order === 'DESC' ? 'DESC' : 'ASC';
    const language = filter.langid ? '(langid <> ?), ' : '';
    const rows = await this.em.execute<StorySqlRow[]>(`SELECT ${COLUMNS} FROM stories WHERE ${where.join(' AND ')} ORDER BY ${language}id ${direction} LIMIT ? OFFSET ?`, [
      ...params,
      ...(filter.langid ? [filter.langid] : []),
      page.limit,
      page.offset,
    ]);
    return rows.map(stateOf);
  }
}
