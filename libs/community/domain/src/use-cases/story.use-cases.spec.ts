import { FixedClock, ImmediateUnitOfWork } from '@rc/shared-kernel/testing';
import { InvalidStoryError, StoryChangeForbiddenError, StoryNotFoundError } from '../community.errors.js';
import type { CommunityActor } from '../model/comment.js';
import { STORY_TEXT_MAX, type StoryId } from '../model/story.js';
import { InMemoryStories, InMemoryStoryQueries, InMemoryStoryReferences } from '../testing/index.js';
import { EditStory, ListStories, PostStory, ViewStory, type StoryDeps } from './story.use-cases.js';

const alice: CommunityActor = { userId: 1, isAdmin: false };
const bob: CommunityActor = { userId: 2, isAdmin: false };
const admin: CommunityActor = { userId: 9, isAdmin: true };
const fields = { title: 'Fixed my phone', intro: 'It broke.', body: 'I replaced the battery.', conclusion: 'It works.' };

describe('stories', () => {
  let deps: StoryDeps;
  let stories: InMemoryStories;
  let refs: InMemoryStoryReferences;
  let clock: FixedClock;

  beforeEach(() => {
    stories = new InMemoryStories();
    refs = new InMemoryStoryReferences();
    refs.images.set(1, { ownerId: 1, width: 1600, height: 1200 });
    refs.images.set(2, { ownerId: 1, width: 640, height: 480 });
    refs.images.set(3, { ownerId: 2, width: 1600, height: 1200 });
    refs.publicGuideIds.add(7);
    clock = new FixedClock('2026-05-01T10:00:00Z');
    deps = { stories, references: refs, clock, uow: new ImmediateUnitOfWork() };
  });

  const post = (actor: CommunityActor, extra: Record<string, unknown> = {}) => new PostStory(deps).execute({ actor, fields: { ...fields, ...extra } });

  it('posts a story with its images, guides and products', async () => {
    const out = await post(alice, { images: [1], guides: [7], products: ['IF123-456'], difficulty: 'Easy', time_taken: 1800, langid: 'de' });
    expect(out.created && out.story).toMatchObject({ title: 'Fixed my phone', imageIds: [1], guideIds: [7], products: ['IF123-456'], difficulty: 'Easy', timeTaken: 1800, langid: 'de', status: 'open' });
  });

  it('one story per user per minute: the next one answers the latest and how long to wait', async () => {
    const first = await post(alice);
    clock.advance(20_000);
    const second = await post(alice, { title: 'Again' });
    expect(second).toEqual({ created: false, latest: first.created && first.story, retryAfterSeconds: 40 });
    expect((await post(bob)).created).toBe(true);
    clock.advance(40_000);
    expect((await post(alice, { title: 'Later' })).created).toBe(true);
    expect(stories.locks).toBe(4);
  });

  it('refuses images not yours or smaller than 800×600, unknown guides, and bad fields', async () => {
    for (const extra of [{ images: [2] }, { images: [3] }, { images: [99] }, { guides: [8] }]) {
      await expect(post(alice, extra)).rejects.toBeInstanceOf(InvalidStoryError);
    }
    for (const extra of [{ title: '' }, { body: 'x'.repeat(STORY_TEXT_MAX + 1) }, { title: 'a\nb' }, { images: 'all' }, { images: [1, 1] }, { difficulty: 'Trivial' }, { time_taken: -1 }, { products: ['no spaces'] }, { intro: '\udc00' }]) {
      await expect(post(alice, extra)).rejects.toBeInstanceOf(InvalidStoryError);
    }
    await expect(new PostStory(deps).execute({ actor: alice, fields: { title: 'only a title' } })).rejects.toBeInstanceOf(InvalidStoryError);
    expect(stories.rows.size).toBe(0);
  });

  it('the author or an Admin edits; others get 403, even for a story that does not exist', async () => {
    const out = await post(alice);
    const id = (out.created && out.story.id) as StoryId;
    const edit = (actor: CommunityActor, storyId: StoryId | null, f: Record<string, unknown>) => new EditStory(deps).execute({ actor, storyId, fields: f });
    await expect(edit(bob, id, { title: 'Mine now' })).rejects.toBeInstanceOf(StoryChangeForbiddenError);
    await expect(edit(bob, 999 as StoryId, { title: 'x' })).rejects.toBeInstanceOf(StoryChangeForbiddenError);
    await expect(edit(admin, 999 as StoryId, { title: 'x' })).rejects.toBeInstanceOf(StoryNotFoundError);
    clock.advance(1000);
    expect(await edit(alice, id, { title: 'Better title', images: [1] })).toMatchObject({ title: 'Better title', imageIds: [1], modifiedAt: clock.now() });
    await expect(edit(alice, id, { images: [1, 3] })).rejects.toBeInstanceOf(InvalidStoryError);
    expect((await edit(admin, id, { conclusion: 'Moderated.' })).conclusion).toBe('Moderated.');
  });

  it('lists open stories with filters; views one', async () => {
    await post(alice, { images: [1], products: ['P1'] });
    await post(bob, { guides: [7] });
    const list = (f: Record<string, unknown>) => new ListStories(new InMemoryStoryQueries(stories)).execute({ filter: { order: 'ASC', requireImages: false, ...f }, page: { limit: 50, offset: 0 } });
    expect((await list({})).map((s) => s.authorId)).toEqual([1, 2]);
    expect((await list({ requireImages: true })).map((s) => s.authorId)).toEqual([1]);
    expect((await list({ guideId: 7 })).map((s) => s.authorId)).toEqual([2]);
    expect((await list({ product: 'P1' })).map((s) => s.authorId)).toEqual([1]);
    expect((await list({ order: 'DESC' })).map((s) => s.authorId)).toEqual([2, 1]);
    expect((await new ViewStory(stories).execute({ viewer: null, storyId: 1 as StoryId })).authorId).toBe(1);
    await expect(new ViewStory(stories).execute({ viewer: null, storyId: 5 as StoryId })).rejects.toBeInstanceOf(StoryNotFoundError);
  });
});
