import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MikroOrmUnitOfWork } from '@rc/shared-infra-mikro-orm';
import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { FixedClock, RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import {
  CommentNotFoundError,
  DeleteComment,
  EditComment,
  ListComments,
  PostComment,
  PostStory,
  ThreadsOfGuides,
  ViewComment,
  type CommentDeps,
  type CommentId,
  type CommunityActor,
  type StoryDeps,
} from '@rc/community-domain';
import { InMemoryCommentTargets, InMemoryStoryReferences } from '@rc/community-domain/testing';
import { communityMigrations } from './migrations/index.js';
import { communitySchemas, communityTables } from './schemas/community.schemas.js';
import { MikroOrmCommentQueries, MikroOrmCommentRepository } from './repositories/mikro-orm-comments.js';
import { MikroOrmStoryQueries, MikroOrmStoryRepository } from './repositories/mikro-orm-stories.js';

const bob: CommunityActor = { userId: 2, isAdmin: false };
const alice: CommunityActor = { userId: 1, isAdmin: false };
const story = { title: 'Saved my laptop', intro: 'Dead fan.', body: 'Replaced it.', conclusion: 'Quiet now.' };

describe('community persistence (PostgreSQL)', () => {
  let db: TestOrm;
  let em: EntityManager;
  let clock: FixedClock;
  let comments: CommentDeps;
  let stories: StoryDeps;
  let targets: InMemoryCommentTargets;
  const statements: string[] = [];
  const inContext = <T>(fn: () => Promise<T>) => RequestContext.create(em, fn);

  beforeAll(async () => {
    db = await createTestOrm({ entities: communitySchemas, migrations: communityMigrations, onQuery: (sql) => statements.push(sql) });
    em = db.orm.em as EntityManager;
  });
  beforeEach(async () => {
    await db.truncate(communityTables);
    clock = new FixedClock('2026-05-01T08:00:00Z');
    targets = new InMemoryCommentTargets();
    targets.guides_.set(10, { isPublic: true, authorId: 1 });
    targets.guides_.set(11, { isPublic: true, authorId: 1 });
    targets.steps.set(100, 10);
    targets.wikis.add(5);
    const uow = new MikroOrmUnitOfWork(em);
    const storyRepo = new MikroOrmStoryRepository(em);
    comments = { comments: new MikroOrmCommentRepository(em), queries: new MikroOrmCommentQueries(em), targets, stories: storyRepo, clock, uow, events: new RecordingIntegrationEvents() };
    const references = new InMemoryStoryReferences();
    references.images.set(1, { ownerId: 1, width: 800, height: 600 });
    references.publicGuideIds.add(10);
    stories = { stories: storyRepo, references, clock, uow };
  });
  afterAll(() => db.close());

  const post = (actor: CommunityActor, context: string, contextId: number, fields: Record<string, unknown>) => inContext(() => new PostComment(comments).execute({ actor, context, contextId, fields }));

  it('creates every table and column the schemas map', async () => {
    expect(await schemaDrift(db.orm)).toEqual([]);
  });

  it('round-trips comments: threads, edits, soft deletes, Unicode', async () => {
    const top = await post(bob, 'guide', 10, { text: 'Wie lange hält der Akku? 🔋', langid: 'de' });
    const reply = await post(alice, 'guide', 10, { text: 'Ages.', parentid: top.id });
    clock.advance(1000);
    await inContext(() => new EditComment(comments).execute({ actor: bob, commentId: top.id, fields: { text: 'How long does it last? 🔋' } }));
    const viewed = await inContext(() => new ViewComment(comments).execute({ viewer: null, commentId: top.id }));
    expect(viewed.comment).toMatchObject({ text: 'How long does it last? 🔋', langid: 'de', modifiedAt: clock.now(), guideId: 10, context: 'guide', contextId: 10 });
    expect(viewed.replies.map((r) => r.id)).toEqual([reply.id]);
    await inContext(() => new DeleteComment(comments).execute({ actor: bob, commentId: top.id }));
    const threads = await inContext(() => new ThreadsOfGuides(comments.queries).execute({ guideIds: [10], stepIds: [] }));
    expect(threads.guides.get(10)!.map((t) => [t.comment.deletedAt !== null, t.replies.map((r) => r.text)])).toEqual([[true, ['Ages.']]]);
    expect(targets.changed).toEqual([10, 10, 10, 10]);
  });

  it('lists live comments by id with context, langid and modifiedSince filters', async () => {
    const a = await post(bob, 'guide', 10, { text: 'a', langid: 'en' });
    const b = await post(bob, 'wiki', 5, { text: 'b' });
    const c = await post(bob, 'step', 100, { text: 'c', langid: 'en' });
    clock.advance(10_000);
    await inContext(() => new EditComment(comments).execute({ actor: bob, commentId: c.id, fields: { text: 'c2' } }));
    const list = (filter: Record<string, unknown>) =>
      inContext(() => new ListComments(comments).execute({ viewer: null, filter: { order: 'ASC', ...filter }, page: { limit: 20, offset: 0 } })).then((l) => l.map((x) => x.comment.id));
    expect(await list({})).toEqual([a.id, b.id, c.id]);
    expect(await list({ order: 'DESC' })).toEqual([c.id, b.id, a.id]);
    expect(await list({ context: 'wiki' })).toEqual([b.id]);
    expect(await list({ langid: 'en' })).toEqual([a.id, c.id]);
    expect(await list({ modifiedSince: new Date(clock.now().getTime() - 1000) })).toEqual([c.id]);
  });

  it('reads a comment with its live replies in one statement; a reply, or a deleted comment, as it is', async () => {
    const top = await post(bob, 'guide', 10, { text: 'top' });
    const first = await post(alice, 'guide', 10, { text: 'first' });
    const r1 = await post(alice, 'guide', 10, { text: 'r1', parentid: top.id });
    const r2 = await post(bob, 'guide', 10, { text: 'r2', parentid: top.id });
    const r3 = await post(alice, 'guide', 10, { text: 'r3', parentid: top.id });
    await inContext(() => new DeleteComment(comments).execute({ actor: alice, commentId: r3.id }));
    const view = (id: CommentId) => inContext(() => new ViewComment(comments).execute({ viewer: null, commentId: id }));
    statements.length = 0;
    const thread = await view(top.id);
    expect(statements).toHaveLength(1);
    expect(thread.comment.text).toBe('top');
    expect(thread.replies.map((r) => r.id)).toEqual([r2.id, r1.id]);
    const reply = await view(r1.id);
    expect([reply.comment.id, reply.replies]).toEqual([r1.id, []]);
    expect((await view(first.id)).replies).toEqual([]);
    await inContext(() => new DeleteComment(comments).execute({ actor: bob, commentId: top.id }));
    const deleted = await view(top.id);
    expect([deleted.comment.deletedAt !== null, deleted.replies.map((r) => r.id)]).toEqual([true, [r2.id, r1.id]]);
    await expect(view(999_999 as CommentId)).rejects.toBeInstanceOf(CommentNotFoundError);
  });

  it('threads of many guides and steps cost one query', async () => {
    for (let i = 0; i < 5; i++) {
      const top = await post(bob, 'guide', i % 2 ? 10 : 11, { text: `t${i}` });
      await post(alice, 'guide', i % 2 ? 10 : 11, { text: `r${i}`, parentid: top.id });
      await post(alice, 'step', 100, { text: `s${i}` });
    }
    statements.length = 0;
    const threads = await inContext(() => new ThreadsOfGuides(comments.queries).execute({ guideIds: [10, 11], stepIds: [100, 101] }));
    expect(statements).toHaveLength(1);
    expect(threads.guides.get(10)).toHaveLength(2);
    expect(threads.guides.get(11)).toHaveLength(3);
    expect(threads.steps.get(100)).toHaveLength(5);
  });

  it('stories: round trip, filters, and one post per user per minute even when sent together', async () => {
    const first = await inContext(() => new PostStory(stories).execute({ actor: alice, fields: { ...story, images: [1], guides: [10], products: ['IF145-307'], time_taken: 3600 } }));
    expect(first.created).toBe(true);
    const queries = new MikroOrmStoryQueries(em);
    const list = (f: Record<string, unknown>) => inContext(() => queries.list({ order: 'ASC', requireImages: false, ...f }, { limit: 50, offset: 0 }));
    expect(await list({ product: 'IF145-307', guideId: 10, requireImages: true })).toMatchObject([{ title: 'Saved my laptop', imageIds: [1], guideIds: [10], products: ['IF145-307'], timeTaken: 3600 }]);
    expect(await list({ product: 'other' })).toEqual([]);
    const together = await Promise.all(Array.from({ length: 4 }, () => inContext(() => new PostStory(stories).execute({ actor: bob, fields: story }))));
    expect(together.filter((o) => o.created)).toHaveLength(1);
    const [{ n }] = await em.fork().execute<{ n: number }[]>('SELECT count(*)::int AS n FROM stories WHERE author_id = ?', [bob.userId]);
    expect(n).toBe(1);
  });
});
