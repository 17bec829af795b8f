import { phoneJpeg, plainJpeg } from './support/media-files.js';
import { DEMO_ACCOUNTS, DEMO_APP_ID, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Who = 'admin' | 'alice' | 'bob';

const BASE = 'https://repair.example';
const COMMENT_KEYS = ['author', 'commentid', 'context', 'contextid', 'date', 'locale', 'modified_date', 'parentid', 'rating', 'replies', 'status', 'text_raw', 'text_rendered', 'title'];
const STORY_KEYS = [
  'author', 'body_raw', 'body_rendered', 'conclusion_raw', 'conclusion_rendered', 'date', 'difficulty', 'guides', 'images', 'intro_raw', 'intro_rendered', 'langid',
  'modified_date', 'products', 'rating', 'status', 'storyid', 'time_taken', 'title_raw', 'title_rendered', 'view_url',
];
/** Markup that would run: a script or image tag, an event-handler attribute, a javascript: link (escaped text is harmless). */
const UNSAFE = /<script|<img|<[^>]*\son\w+\s*=|href\s*=\s*"?\s*javascript:/i;
const story = { title: 'Fixed it', intro: 'It broke.', body: 'I fixed it.', conclusion: 'It works.' };

/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => ((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field);

describe('comments and stories over HTTP', () => {
  let api: TestApi;
  let mediaDir: string;
  const token: Record<Who, string> = { admin: '', alice: '', bob: '' };
  const id: Record<Who, number> = { admin: 0, alice: 0, bob: 0 };
  const statements: string[] = [];
  let serial = 0;
  let battery: { guideid: number; steps: { stepid: number; comments: unknown[] }[] };
  let draftId: number;
  let coffeeId: number;

  const auth = (who: Who | string | null) => (who === null ? undefined : who in token ? token[who as Who] : who);
  const post = (who: Who | string | null, path: string, body: unknown) => api.request('POST', path, { token: auth(who), body });
  const comment = (who: Who | string | null, context: string, contextId: number | string, body: unknown) => post(who, `/comments/${context}/${contextId}`, body);
  const patch = (who: Who | string | null, path: string, body: unknown) => api.request('PATCH', path, { token: auth(who), body });
  const get = (path: string, who: Who | string | null = null) => api.request('GET', path, { token: auth(who) });
  const expectError = (res: ApiResponse, status: number) => {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ error: true, message: expect.any(String) });
  };

  /** A new account, logged in. */
  const register = async () => {
    serial += 1;
    const account = { email: `writer${serial}@example.com`, username: `Writer ${serial}`, unique_username: `writer${serial}`, password: 'writer-test-password' };
    const res = await api.request('POST', '/users', { appId: DEMO_APP_ID, body: account });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return { userid: res.body.userid as number, token: res.body.authToken as string };
  };

  const upload = async (who: string, body: Buffer) => {
    const res = await api.raw('POST', '/api/2.0/user/media/images?file=photo.jpg', { headers: { Authorization: `api ${who}` }, body });
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.text}`);
    return res.body.image.id as number;
  };

  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'rc-community-e2e-'));
    api = await startTestApi({ PUBLIC_BASE_URL: BASE, MEDIA_DIR: mediaDir }, { onQuery: (sql) => statements.push(sql) });
    for (const who of ['admin', 'alice', 'bob'] as const) {
      token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
      id[who] = (await api.request('GET', '/user', { token: token[who] })).body.userid;
    }
    const guides = (await get('/guides?limit=50')).body as { guideid: number; title: string }[];
    battery = (await get(`/guides/${guides.find((g) => g.title === 'iPhone 12 Battery Replacement')!.guideid}?excludePrerequisiteSteps`)).body;
    coffeeId = guides.find((g) => g.title === 'Coffee Maker Descaling')!.guideid;
    draftId = (await api.sql<{ id: number }>('SELECT id FROM guides WHERE NOT is_public'))[0]!.id;
  });
  afterAll(async () => {
    await api.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  describe('the demo data', () => {
    it('shows a thread with replies on a guide, step comments, and comments on a wiki page and a story', async () => {
      const guide = (await get(`/guides/${battery.guideid}`)).body;
      expect(guide.comments).toHaveLength(1);
      const [thread] = guide.comments;
      expect(Object.keys(thread).sort()).toEqual(COMMENT_KEYS);
      expect(thread).toMatchObject({ context: 'guide', contextid: battery.guideid, parentid: null, status: 'public', rating: 0, title: '', author: { userid: id.bob } });
      expect(thread.text_rendered).toContain('<em>mini</em>');
      expect(thread.replies.map((r: { author: { userid: number } }) => r.author.userid)).toEqual([id.admin, id.alice]);
      expect(guide.steps.some((s: { comments: unknown[] }) => s.comments.length > 0)).toBe(true);
      const all = (await get('/comments?limit=200')).body as { context: string }[];
      expect(new Set(all.map((c) => c.context))).toEqual(new Set(['guide', 'step', 'wiki', 'story']));
      // The private draft's note is not listed to anyone but its author and Admins.
      expect(all.some((c) => (c as unknown as { contextid: number }).contextid === draftId)).toBe(false);
      expect(((await get('/comments?limit=200', 'bob')).body as { contextid: number }[]).some((c) => c.contextid === draftId)).toBe(true);
      const stories = (await get('/stories')).body;
      expect(stories).toHaveLength(2);
      expect(Object.keys(stories[0]).sort()).toEqual(STORY_KEYS);
      expect(stories[0]).toMatchObject({ status: 'open', author: { userid: id.alice }, guides: [{ guideid: battery.guideid, dataType: 'guide' }], products: [{ productCode: 'IF315-036' }] });
    });
  });

  describe('comments', () => {
    it('posts on a guide, a step, a wiki page and a story (201), with replies one level deep', async () => {
      const onGuide = await comment('alice', 'guide', coffeeId, { text: "Works with citric acid too, '''no vinegar smell'''." });
      expect(onGuide.status).toBe(201);
      expect(onGuide.body).toMatchObject({ context: 'guide', contextid: coffeeId, locale: null, modified_date: 0, status: 'public', author: { userid: id.alice, username: DEMO_ACCOUNTS.alice.username }, replies: [] });
      expect(onGuide.body.text_rendered).toContain('<strong>no vinegar smell</strong>');
      const reply = await comment('bob', 'guide', coffeeId, { text: 'Thanks!', parentid: onGuide.body.commentid, langid: 'en' });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ parentid: onGuide.body.commentid, locale: 'en' });
      expectError(await comment('bob', 'guide', coffeeId, { text: 'Deeper', parentid: reply.body.commentid }), 422);
      expect((await comment('bob', 'step', battery.steps[0]!.stepid, { text: 'Step note' })).status).toBe(201);
      const wiki = ((await get('/comments?context=wiki')).body as { contextid: number }[])[0]!;
      expect((await comment('bob', 'wiki', wiki.contextid, { text: 'Wiki note' })).status).toBe(201);
      const storyId = ((await get('/stories')).body as { storyid: number }[])[0]!.storyid;
      expect((await comment('alice', 'story', storyId, { text: 'Story note' })).status).toBe(201);
      const one = (await get(`/comments/${onGuide.body.commentid}`)).body;
      expect(one.replies.map((r: { commentid: number }) => r.commentid)).toEqual([reply.body.commentid]);
    });

    it('401 without a token, 404 for missing pages, 403 for a private guide, 422 for bad contexts', async () => {
      expectError(await comment(null, 'guide', coffeeId, { text: 'anon' }), 401);
      expectError(await comment('alice', 'guide', 999999, { text: 'x' }), 404);
      expectError(await comment('alice', 'guide', 'abc', { text: 'x' }), 404);
      expectError(await comment('alice', 'step', 999999, { text: 'x' }), 404);
      expectError(await comment('alice', 'wiki', 999999, { text: 'x' }), 404);
      expectError(await comment('alice', 'story', 999999, { text: 'x' }), 404);
      expectError(await comment('alice', 'post', 1, { text: 'x' }), 404);
      const info = await comment('alice', 'info', 1, { text: 'x' });
      expectError(info, 422);
      expect(fieldsOf(info)).toEqual(['context']);
      const privateComment = await comment('alice', 'guide', draftId, { text: 'Peek' });
      expectError(privateComment, 403);
      expect(privateComment.body.message).toBe('Guide is private.');
      expect((await comment('admin', 'guide', draftId, { text: 'Moderator note' })).status).toBe(201);
    });

    it('a private guide\'s comments are 403 to others, readable by its author', async () => {
      const note = (await comment('bob', 'guide', draftId, { text: 'My own note' })).body.commentid as number;
      expectError(await get(`/comments/${note}`), 403);
      expectError(await get(`/comments/${note}`, 'alice'), 403);
      expect((await get(`/comments/${note}`, 'bob')).status).toBe(200);
      expectError(await patch('alice', `/comments/${note}`, { text: 'x' }), 403);
    });

    it('follows the guides\' rule: a team that may edit the private guide sees its comments', async () => {
      const note = (await comment('bob', 'guide', draftId, { text: 'For the team' })).body.commentid as number;
      const member = await register();
      expectError(await get(`/comments/${note}`, member.token), 403);
      const team = await post(member.token, '/teams', { name: `Draft team ${serial}` });
      expect(team.status).toBe(201);
      expect((await api.request('PUT', `/guides/${draftId}/teams/${team.body.teamid}`, { token: token.bob })).status).toBe(201);
      expect((await get(`/comments/${note}`, member.token)).status).toBe(200);
      expect((await comment(member.token, 'guide', draftId, { text: 'On it', parentid: note })).status).toBe(201);
      expect(((await get('/comments?limit=200', member.token)).body as { commentid: number }[]).map((c) => c.commentid)).toContain(note);
    });

    it('422 for bad bodies: unknown fields, empty or huge text, control characters; 400 for broken Unicode or JSON; 413 over 1 MiB', async () => {
      const bad = async (body: unknown, field: string) => {
        const res = await comment('alice', 'guide', coffeeId, body);
        expectError(res, 422);
        expect(fieldsOf(res)).toContain(field);
      };
      await bad({ text: 'x', rating: 5 }, 'rating');
      await bad({}, 'text');
      await bad({ text: '   ' }, 'text');
      await bad({ text: 'x'.repeat(10_001) }, 'text');
      await bad({ text: 42 }, 'text');
      await bad({ text: 'bell\u0007' }, 'text');
      await bad({ text: 'x', parentid: 'first' }, 'parentid');
      await bad({ text: 'x', langid: 'english' }, 'langid');
      // A lone surrogate, escaped as JSON allows: no text can hold it, so the body is refused as a whole.
      expectError(await comment('alice', 'guide', coffeeId, '{"text": "half \\ud800 a pair"}'), 400);
      expectError(await comment('alice', 'guide', coffeeId, '{"text": '), 400);
      expectError(await comment('alice', 'guide', coffeeId, { text: 'x'.repeat(1_100_000) }), 413);
      const [{ n }] = await api.sql<{ n: number }>("SELECT count(*)::int AS n FROM comments WHERE text LIKE 'half%' OR length(text) > 10000");
      expect(n).toBe(0);
    });

    it('renders markup safely: no script, no event handler, no javascript: link', async () => {
      const res = await comment('alice', 'guide', coffeeId, { text: `<script>alert(1)</script> <img src=x onerror=alert(1)> [link|javascript:alert(1)|click] [[x"onmouseover="alert(1)|y]]` });
      expect(res.status).toBe(201);
      const html = res.body.text_rendered as string;
      expect(html).not.toMatch(UNSAFE);
      expect(res.body.text_raw).toContain('<script>');
    });

    it('edits: the author (200), not others (403), the text only (422), unknown ids (404)', async () => {
      const c = (await comment('bob', 'guide', coffeeId, { text: 'Frist' })).body.commentid as number;
      expectError(await patch('alice', `/comments/${c}`, { text: 'Hijacked' }), 403);
      expectError(await patch(null, `/comments/${c}`, { text: 'x' }), 401);
      expectError(await patch('bob', `/comments/${c}`, { text: 'First', parentid: 1 }), 422);
      expectError(await patch('bob', '/comments/999999', { text: 'x' }), 404);
      const edited = await patch('bob', `/comments/${c}`, { text: 'First' });
      expect(edited.status).toBe(200);
      expect(edited.body.text_raw).toBe('First');
      expect(edited.body.modified_date).toBeGreaterThan(0);
      expect((await patch('admin', `/comments/${c}`, { text: 'Moderated' })).body.text_raw).toBe('Moderated');
      expect(((await get(`/comments?modifiedSince=${edited.body.modified_date}`)).body as { commentid: number }[]).map((x) => x.commentid)).toContain(c);
    });

    it('deletes softly: the author or an Admin (204), others 403; replies stay readable in the guide body', async () => {
      const top = (await comment('bob', 'guide', coffeeId, { text: 'Delete me' })).body.commentid as number;
      const reply = (await comment('alice', 'guide', coffeeId, { text: 'A reply that stays', parentid: top })).body.commentid as number;
      expectError(await api.request('DELETE', `/comments/${top}`, { token: token.alice }), 403);
      expect((await api.request('DELETE', `/comments/${top}`, { token: token.bob })).status).toBe(204);
      expectError(await api.request('DELETE', `/comments/${top}`, { token: token.bob }), 404);
      expect((await get(`/comments/${top}`)).body).toMatchObject({ status: 'deleted', text_raw: '', text_rendered: '' });
      const guide = (await get(`/guides/${coffeeId}`)).body;
      const thread = guide.comments.find((t: { commentid: number }) => t.commentid === top);
      expect(thread).toMatchObject({ status: 'deleted', text_raw: '' });
      expect(thread.replies.map((r: { commentid: number; text_raw: string }) => [r.commentid, r.text_raw])).toEqual([[reply, 'A reply that stays']]);
      expect((await api.request('DELETE', `/comments/${reply}`, { token: token.admin })).status).toBe(204);
      expect((await get(`/guides/${coffeeId}`)).body.comments.some((t: { commentid: number }) => t.commentid === top)).toBe(false);
    });

    it('a cached guide body shows a new comment at once, with a new ETag', async () => {
      const first = await get(`/guides/${coffeeId}`);
      expect((await get(`/guides/${coffeeId}`)).headers.get('etag')).toBe(first.headers.get('etag'));
      const added = (await comment('bob', 'guide', coffeeId, { text: 'Fresh comment' })).body.commentid;
      const after = await get(`/guides/${coffeeId}`);
      expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
      expect(after.body.comments.map((c: { commentid: number }) => c.commentid)).toContain(added);
      expect(after.body.revisionid).toBe(first.body.revisionid);
      const stepId = after.body.steps[0].stepid as number;
      await comment('alice', 'step', stepId, { text: 'On the step' });
      const withStep = (await get(`/guides/${coffeeId}`)).body;
      expect(withStep.steps[0].comments.map((c: { text_raw: string }) => c.text_raw)).toContain('On the step');
      const counted = (await get(`/guides/${coffeeId}?stepComments`)).body;
      expect(counted.steps[0].comment_count).toBe(withStep.steps[0].comments.length);
      expect(withStep.steps[0].comment_count).toBeUndefined();
    });

    it('lists with filters; bad parameters are 400', async () => {
      const wiki = (await get('/comments?context=wiki')).body as { context: string }[];
      expect(wiki.length).toBeGreaterThan(0);
      expect(wiki.every((c) => c.context === 'wiki')).toBe(true);
      expect((await get('/comments?context=nonsense')).body).toEqual([]);
      const asc = ((await get('/comments?limit=5')).body as { commentid: number }[]).map((c) => c.commentid);
      const desc = ((await get('/comments?order=DESC&limit=5')).body as { commentid: number }[]).map((c) => c.commentid);
      expect(asc).toEqual([...asc].sort((a, b) => a - b));
      expect(desc).toEqual([...desc].sort((a, b) => b - a));
      expectError(await get('/comments?limit=-1'), 400);
      expectError(await get('/comments?order=sideways'), 400);
      expectError(await get('/comments?modifiedSince=yesterday'), 400);
      expectError(await get('/comments/abc'), 404);
    });

    it('a thread costs the same number of queries with 1 reply as with 25', async () => {
      // The fewer of two reads, without the events outbox's polls (a background worker's, not the
      // request's): other background work may still add a statement to either read, and user
      // summaries a first read looks up are kept for the second. An N+1 would add a statement per
      // comment to both.
      const ownStatement = (sql: string) => !/^(begin|commit|rollback)/i.test(sql.trim()) && !/pg_try_advisory_xact_lock|guide_events_outbox/.test(sql);
      const queriesOf = async (path: string) => {
        const counts: number[] = [];
        for (let read = 0; read < 2; read++) {
          await api.settle();
          const before = statements.length;
          expect((await get(path)).status).toBe(200);
          counts.push(statements.slice(before).filter(ownStatement).length);
        }
        return Math.min(...counts);
      };
      const small = (await comment('alice', 'guide', coffeeId, { text: 'Small thread' })).body.commentid as number;
      await comment('bob', 'guide', coffeeId, { text: 'One reply', parentid: small });
      const large = (await comment('alice', 'guide', coffeeId, { text: 'Large thread' })).body.commentid as number;
      for (let i = 0; i < 25; i++) {
        const replier = await register();
        await comment(replier.token, 'guide', coffeeId, { text: `Reply ${i}`, parentid: large });
      }
      expect(await queriesOf(`/comments/${large}`)).toBe(await queriesOf(`/comments/${small}`));
      expect(await queriesOf(`/comments/${large}`)).toBeLessThanOrEqual(8);
      expect(await queriesOf('/comments?limit=100')).toBe(await queriesOf('/comments?limit=2'));
      // A guide body with all these comments (27, by 27 authors) costs what a guide with one comment
      // costs (neither has prerequisites).
      const teardown = ((await get('/guides?limit=50')).body as { guideid: number; type: string }[]).find((g) => g.type === 'teardown')!.guideid;
      expect((await get(`/guides/${teardown}`)).body.comments).toEqual([]);
      await comment((await register()).token, 'guide', teardown, { text: 'The only comment' });
      expect(await queriesOf(`/guides/${coffeeId}?stepComments`)).toBe(await queriesOf(`/guides/${teardown}?stepComments`));
    });
  });

  describe('stories', () => {
    it('posts (201), then 429 with the latest story and Retry-After within the minute', async () => {
      const writer = await register();
      expectError(await post(null, '/stories', story), 401);
      const first = await post(writer.token, '/stories', { ...story, langid: 'de', products: ['IF145-307'], difficulty: 'Easy', time_taken: 600 });
      expect(first.status).toBe(201);
      expect(Object.keys(first.body).sort()).toEqual(STORY_KEYS);
      expect(first.body).toMatchObject({ langid: 'de', status: 'open', author: { userid: writer.userid }, view_url: `${BASE}/Story/${first.body.storyid}`, difficulty: 'Easy', time_taken: 600 });
      const second = await post(writer.token, '/stories', { ...story, title: 'Again' });
      expect(second.status).toBe(429);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(second.body.storyid).toBe(first.body.storyid);
      // The demo accounts posted their demo stories when the server started.
      expect((await post('alice', '/stories', story)).status).toBe(429);
    });

    it('422 for missing or bad fields, images not yours or too small, guides not public', async () => {
      const writer = await register();
      const other = await register();
      const small = await upload(writer.token, await plainJpeg(640, 480));
      const large = await upload(writer.token, await phoneJpeg(1600, 1200));
      const foreign = await upload(other.token, await plainJpeg(1024, 768));
      const bad = async (body: unknown, field: string) => {
        const res = await post(writer.token, '/stories', body);
        expectError(res, 422);
        expect(fieldsOf(res)).toContain(field);
      };
      await bad({ title: 'Only a title' }, 'intro');
      await bad({ ...story, images: [small] }, 'images');
      await bad({ ...story, images: [foreign] }, 'images');
      await bad({ ...story, images: [large, large] }, 'images');
      await bad({ ...story, guides: [draftId] }, 'guides');
      await bad({ ...story, rating: 5 }, 'rating');
      await bad({ ...story, title: 'two\nlines' }, 'title');
      await bad({ ...story, body: 'x'.repeat(50_001) }, 'body');
      const broken = await post(writer.token, '/stories', `{"title": "t", "intro": "\\udfff", "body": "b", "conclusion": "c"}`);
      expectError(broken, 400);
      const ok = await post(writer.token, '/stories', { ...story, images: [large], guides: [coffeeId] });
      expect(ok.status).toBe(201);
      // The media context's Image object, as the media endpoints show it (no GUID made up from the id).
      const image = (await api.request('GET', `/media/images/${large}`, { token: writer.token })).body.image;
      expect(image).toMatchObject({ id: large, guid: expect.stringMatching(/^[A-Za-z][A-Za-z0-9]{15}$/) });
      expect(ok.body.images).toEqual([image]);
      expect((await get(`/stories/${ok.body.storyid}`)).body.images).toEqual([image]);
      expect(ok.body.guides).toEqual([expect.objectContaining({ guideid: coffeeId })]);
      const withImages = (await get('/stories?requireImages')).body as { storyid: number }[];
      expect(withImages.map((s) => s.storyid)).toEqual([ok.body.storyid]);
    });

    it('reads one (200/404), filters and pages at most 50', async () => {
      const all = (await get('/stories?limit=500')).body as { storyid: number }[];
      expect(all.length).toBeGreaterThan(0);
      expect((await get(`/stories/${all[0]!.storyid}`)).body.storyid).toBe(all[0]!.storyid);
      expectError(await get('/stories/999999'), 404);
      expectError(await get('/stories/abc'), 404);
      expect(((await get(`/stories?guideid=${battery.guideid}`)).body as { guides: { guideid: number }[] }[]).every((s) => s.guides.some((g) => g.guideid === battery.guideid))).toBe(true);
      expect((await get('/stories?product=IF315-036')).body).toHaveLength(1);
      expect((await get('/stories?product=nothing')).body).toEqual([]);
      expectError(await get('/stories?guideid=abc'), 400);
      expectError(await get('/stories?limit=x'), 400);
      const many = await register();
      await api.sql(
        `INSERT INTO stories (id, author_id, langid, status, title, intro, body, conclusion, image_ids, guide_ids, products, created_at, modified_at)
         SELECT nextval('stories_id_seq'), $1, 'en', 'open', 'Bulk ' || n, 'i', 'b', 'c', '{}', '{}', '{}', now(), now() FROM generate_series(1, 60) n`,
        [many.userid],
      );
      expect((await get('/stories?limit=200')).body).toHaveLength(50);
    });

    it('edits: the author or an Admin (200); others 403 even for a missing story; Admins 404 then; bad fields 422', async () => {
      const writer = await register();
      const created = (await post(writer.token, '/stories', story)).body.storyid as number;
      expectError(await patch('alice', `/stories/${created}`, { title: 'Mine' }), 403);
      expectError(await patch('alice', '/stories/999999', { title: 'Mine' }), 403);
      expectError(await patch('admin', '/stories/999999', { title: 'Mine' }), 404);
      expectError(await patch(null, `/stories/${created}`, { title: 'x' }), 401);
      expectError(await patch(writer.token, `/stories/${created}`, { status: 'deleted' }), 422);
      expectError(await patch(writer.token, `/stories/${created}`, { difficulty: 'Trivial' }), 422);
      const edited = await patch(writer.token, `/stories/${created}`, { title: "A ''better'' title", object: null });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ title_raw: "A ''better'' title", title_rendered: 'A <em>better</em> title' });
      expect((await patch('admin', `/stories/${created}`, { conclusion: 'Moderated.' })).body.conclusion_raw).toBe('Moderated.');
    });

    it('renders story markup safely', async () => {
      const writer = await register();
      const res = await post(writer.token, '/stories', { ...story, body: '<script>alert(1)</script>[link|javascript:alert(1)|x]', title: '<img src=x onerror=alert(1)>' });
      expect(res.status).toBe(201);
      expect(`${res.body.body_rendered}${res.body.title_rendered}`).not.toMatch(UNSAFE);
    });
  });
});
