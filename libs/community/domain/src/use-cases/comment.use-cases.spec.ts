import { FixedClock, ImmediateUnitOfWork, RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import { CommentChangeForbiddenError, CommentNotFoundError, CommentTargetNotFoundError, InvalidCommentError, PrivateCommentTargetError } from '../community.errors.js';
import { COMMENT_TEXT_MAX, threadsOf, type CommentId, type CommunityActor } from '../model/comment.js';
import { InMemoryCommentQueries, InMemoryComments, InMemoryCommentTargets, InMemoryStories } from '../testing/index.js';
import { DeleteComment, EditComment, ListComments, PostComment, ThreadsOfGuides, ViewComment, type CommentDeps } from './comment.use-cases.js';

const alice: CommunityActor = { userId: 1, isAdmin: false };
const bob: CommunityActor = { userId: 2, isAdmin: false };
const admin: CommunityActor = { userId: 9, isAdmin: true };

describe('comments', () => {
  let deps: CommentDeps;
  let targets: InMemoryCommentTargets;
  let comments: InMemoryComments;
  let clock: FixedClock;

  beforeEach(() => {
    comments = new InMemoryComments();
    targets = new InMemoryCommentTargets();
    targets.guides_.set(10, { isPublic: true, authorId: 1 });
    targets.guides_.set(20, { isPublic: false, authorId: 1 });
    targets.steps.set(100, 10);
    targets.steps.set(200, 20);
    targets.wikis.add(5);
    clock = new FixedClock('2026-05-01T10:00:00Z');
    deps = { comments, queries: new InMemoryCommentQueries(comments), targets, stories: new InMemoryStories(), clock, uow: new ImmediateUnitOfWork(), events: new RecordingIntegrationEvents() };
  });

  const post = (actor: CommunityActor, context: string, contextId: number | null, fields: Record<string, unknown>) => new PostComment(deps).execute({ actor, context, contextId, fields });

  it('posts on a guide, a step and a wiki page, and tells the guides of guide and step comments', async () => {
    const onGuide = await post(bob, 'guide', 10, { text: "  ''Nice'' guide  " });
    const onStep = await post(bob, 'step', 100, { text: 'Which screwdriver?', langid: 'en' });
    const onWiki = await post(bob, 'wiki', 5, { text: 'Thanks' });
    expect(onGuide.state).toMatchObject({ context: 'guide', contextId: 10, guideId: 10, text: "''Nice'' guide", parentId: null, modifiedAt: null, langid: null });
    expect(onStep.state).toMatchObject({ context: 'step', contextId: 100, guideId: 10, langid: 'en' });
    expect(onWiki.state.guideId).toBeNull();
    expect(targets.changed).toEqual([10, 10]);
  });

  it('tells the outside world (webhooks) of each comment posted, edited and deleted, and of nothing refused', async () => {
    const events = deps.events as RecordingIntegrationEvents;
    const posted = await post(bob, 'step', 100, { text: 'Which screwdriver?' });
    await expect(post(bob, 'guide', 20, { text: 'x' })).rejects.toBeInstanceOf(PrivateCommentTargetError);
    await new EditComment(deps).execute({ actor: bob, commentId: posted.id, fields: { text: 'Which driver?' } });
    await new DeleteComment(deps).execute({ actor: admin, commentId: posted.id });
    expect(events.types()).toEqual(['comment.created', 'comment.edited', 'comment.deleted']);
    expect(events.published[2]).toEqual({
      type: 'comment.deleted',
      resource: `comment:${posted.id}`,
      data: { commentid: posted.id, context: 'step', contextid: 100, guideid: 10, parentid: null, userid: admin.userId },
      at: clock.now(),
    });
  });

  it('refuses missing targets (404), private guides to others (403), unknown contexts (422) and foreign ones (404)', async () => {
    await expect(post(bob, 'guide', 11, { text: 'x' })).rejects.toBeInstanceOf(CommentTargetNotFoundError);
    await expect(post(bob, 'step', 999, { text: 'x' })).rejects.toBeInstanceOf(CommentTargetNotFoundError);
    await expect(post(bob, 'wiki', 6, { text: 'x' })).rejects.toBeInstanceOf(CommentTargetNotFoundError);
    await expect(post(bob, 'story', 1, { text: 'x' })).rejects.toBeInstanceOf(CommentTargetNotFoundError);
    await expect(post(bob, 'guide', 20, { text: 'x' })).rejects.toBeInstanceOf(PrivateCommentTargetError);
    await expect(post(bob, 'step', 200, { text: 'x' })).rejects.toBeInstanceOf(PrivateCommentTargetError);
    await expect(post(bob, 'info', 1, { text: 'x' })).rejects.toBeInstanceOf(InvalidCommentError);
    await expect(post(bob, 'post', 1, { text: 'x' })).rejects.toBeInstanceOf(CommentTargetNotFoundError);
    expect((await post(alice, 'guide', 20, { text: 'note to self' })).state.guideId).toBe(20);
    expect((await post(admin, 'step', 200, { text: 'moderator note' })).state.guideId).toBe(20);
  });

  it('refuses bad text: empty, too long, not a string, broken Unicode, control characters', async () => {
    for (const text of ['', '   ', 'x'.repeat(COMMENT_TEXT_MAX + 1), 42, null, 'broken \ud800 half', 'bell \u0007']) {
      await expect(post(bob, 'guide', 10, { text })).rejects.toBeInstanceOf(InvalidCommentError);
    }
    await expect(post(bob, 'guide', 10, { text: 'ok', langid: 'english' })).rejects.toBeInstanceOf(InvalidCommentError);
    expect((await post(bob, 'guide', 10, { text: 'two\nlines 🔧' })).state.text).toBe('two\nlines 🔧');
    expect(comments.rows.size).toBe(1);
  });

  it('threads are one level deep, on the same target, under a live comment', async () => {
    const top = await post(bob, 'guide', 10, { text: 'Question' });
    const reply = await post(alice, 'guide', 10, { text: 'Answer', parentid: top.id });
    expect(reply.state.parentId).toBe(top.id);
    await expect(post(bob, 'guide', 10, { text: 'deeper', parentid: reply.id })).rejects.toBeInstanceOf(InvalidCommentError);
    await expect(post(bob, 'step', 100, { text: 'elsewhere', parentid: top.id })).rejects.toBeInstanceOf(InvalidCommentError);
    await expect(post(bob, 'guide', 10, { text: 'nothing', parentid: 999 })).rejects.toBeInstanceOf(InvalidCommentError);
    await expect(post(bob, 'guide', 10, { text: 'bad', parentid: 'x' })).rejects.toBeInstanceOf(InvalidCommentError);
  });

  it('the author edits within five minutes, an Admin any time, nobody else', async () => {
    const c = await post(bob, 'guide', 10, { text: 'Frist' });
    const edit = (actor: CommunityActor, text: unknown) => new EditComment(deps).execute({ actor, commentId: c.id, fields: { text } });
    await expect(edit(alice, 'hijack')).rejects.toBeInstanceOf(CommentChangeForbiddenError);
    clock.advance(60_000);
    expect((await edit(bob, 'First')).comment).toMatchObject({ text: 'First', modifiedAt: clock.now() });
    clock.advance(5 * 60_000);
    await expect(edit(bob, 'Late')).rejects.toBeInstanceOf(CommentChangeForbiddenError);
    expect((await edit(admin, 'Moderated')).comment.text).toBe('Moderated');
    await expect(edit(admin, '')).rejects.toBeInstanceOf(InvalidCommentError);
    expect(comments.rows.get(c.id)!.text).toBe('Moderated');
  });

  it('an edit that changes nothing keeps modified_date and tells nobody', async () => {
    const c = await post(bob, 'guide', 10, { text: 'Same' });
    targets.changed.length = 0;
    await new EditComment(deps).execute({ actor: bob, commentId: c.id, fields: { text: ' Same ' } });
    expect(comments.rows.get(c.id)!.modifiedAt).toBeNull();
    expect(targets.changed).toEqual([]);
  });

  it('deletes softly (author or Admin): the replies stay readable under it', async () => {
    const top = await post(bob, 'guide', 10, { text: 'Question' });
    const reply = await post(alice, 'guide', 10, { text: 'Answer', parentid: top.id });
    const del = (actor: CommunityActor, id: CommentId) => new DeleteComment(deps).execute({ actor, commentId: id });
    await expect(del(alice, top.id)).rejects.toBeInstanceOf(CommentChangeForbiddenError);
    await del(bob, top.id);
    await expect(del(bob, top.id)).rejects.toBeInstanceOf(CommentNotFoundError);
    await expect(new EditComment(deps).execute({ actor: admin, commentId: top.id, fields: { text: 'x' } })).rejects.toBeInstanceOf(CommentNotFoundError);
    const threads = threadsOf([...comments.rows.values()]);
    expect(threads).toHaveLength(1);
    expect(threads[0]!.comment.deletedAt).not.toBeNull();
    expect(threads[0]!.replies.map((r) => r.id)).toEqual([reply.id]);
    await del(admin, reply.id);
    expect(threadsOf([...comments.rows.values()])).toEqual([]);
  });

  it('a private guide\'s comments are 403 to others, listed only for who may see them', async () => {
    const open = await post(bob, 'guide', 10, { text: 'public' });
    const hidden = await post(alice, 'step', 200, { text: 'private' });
    await expect(new ViewComment(deps).execute({ viewer: bob, commentId: hidden.id })).rejects.toBeInstanceOf(PrivateCommentTargetError);
    await expect(new ViewComment(deps).execute({ viewer: null, commentId: hidden.id })).rejects.toBeInstanceOf(PrivateCommentTargetError);
    await expect(new ViewComment(deps).execute({ viewer: null, commentId: 77 as CommentId })).rejects.toBeInstanceOf(CommentNotFoundError);
    expect((await new ViewComment(deps).execute({ viewer: alice, commentId: hidden.id })).comment.text).toBe('private');
    const list = (viewer: CommunityActor | null) => new ListComments(deps).execute({ viewer, filter: { order: 'ASC' }, page: { limit: 20, offset: 0 } });
    expect((await list(null)).map((c) => c.comment.id)).toEqual([open.id]);
    expect((await list(alice)).map((c) => c.comment.id)).toEqual([open.id, hidden.id]);
    await expect(new DeleteComment(deps).execute({ actor: bob, commentId: hidden.id })).rejects.toBeInstanceOf(PrivateCommentTargetError);
  });

  it('threads of guides and steps: oldest first, replies newest first', async () => {
    const a = await post(bob, 'guide', 10, { text: 'A' });
    const b = await post(bob, 'guide', 10, { text: 'B' });
    const r1 = await post(alice, 'guide', 10, { text: 'r1', parentid: a.id });
    const r2 = await post(alice, 'guide', 10, { text: 'r2', parentid: a.id });
    const s = await post(bob, 'step', 100, { text: 'S' });
    const { guides, steps } = await new ThreadsOfGuides(deps.queries).execute({ guideIds: [10], stepIds: [100, 101] });
    expect(guides.get(10)!.map((t) => [t.comment.id, t.replies.map((r) => r.id)])).toEqual([[a.id, [r2.id, r1.id]], [b.id, []]]);
    expect(steps.get(100)!.map((t) => t.comment.id)).toEqual([s.id]);
    expect(steps.has(101)).toBe(false);
  });
});
