import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

type Who = 'admin' | 'alice';
const fieldsOf = (res: ApiResponse) => ((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field);

/** A wiki page's history: its revisions with their summaries of change, and the difference between two. */
describe('wiki pages over HTTP: history and diff', () => {
  let api: TestApi;
  const token: Record<Who, string> = { admin: '', alice: '' };
  let adminId = 0;
  let serial = 0;

  const req = (method: string, path: string, who: Who | null = 'admin', body?: unknown) => api.request(method, path, { token: who ? token[who] : undefined, body });

  beforeAll(async () => {
    api = await startTestApi();
    for (const who of ['admin', 'alice'] as const) token[who] = await api.logIn(DEMO_ACCOUNTS[who].email, DEMO_ACCOUNTS[who].password);
    adminId = (await req('GET', '/user')).body.userid;
  });
  afterAll(() => api.close());

  /** A WIKI page with three revisions: created, edited (summary in the body), reverted (summary in the query). */
  async function pageWithHistory() {
    const title = `History_page_${++serial}`;
    const created = await req('POST', '/wikis', 'admin', { namespace: 'WIKI', title, contents: 'Heat the joint.\nFeed the solder.', summary_of_change: 'First version' });
    expect(created.status).toBe(201);
    const edited = await req('PATCH', `/wikis/WIKI/${title}?revisionid=${created.body.revisionid}`, 'admin', { contents: 'Heat the pad.\nFeed the solder.', description: 'How to', summary_of_change: 'Pad, not joint' });
    expect(edited.status).toBe(200);
    const reverted = await req('POST', `/wikis/WIKI/${title}/revert?revisionid=${edited.body.revisionid}&to_revisionid=${created.body.revisionid}&summary_of_change=Undo`);
    expect(reverted.status).toBe(200);
    return { title, created: created.body, edited: edited.body, reverted: reverted.body };
  }

  it('GET /wikis/{ns}/{title}/revisions: newest first, paged, with author, summary of change and language; public', async () => {
    const { title, created, edited, reverted } = await pageWithHistory();
    const res = await req('GET', `/wikis/WIKI/${title}/revisions`, null);
    expect(res.status).toBe(200);
    expect(res.body.map((r: { revisionid: number; summary_of_change: string | null }) => [r.revisionid, r.summary_of_change])).toEqual([
      [reverted.revisionid, 'Undo'],
      [edited.revisionid, 'Pad, not joint'],
      [created.revisionid, 'First version'],
    ]);
    expect(res.body[0]).toEqual({ revisionid: reverted.revisionid, date: expect.any(Number), author: expect.objectContaining({ userid: adminId }), summary_of_change: 'Undo', langid: 'en' });
    expect((await req('GET', `/wikis/WIKI/${title}/revisions?limit=1&offset=2`, null)).body.map((r: { revisionid: number }) => r.revisionid)).toEqual([created.revisionid]);
    expect((await req('GET', `/wikis/WIKI/No_such_page/revisions`, null)).status).toBe(404);
    expect((await req('GET', `/wikis/WIKI/${title}/revisions?offset=-1`, null)).status).toBe(400);
  });

  it('GET /wikis/{ns}/{title}/diff: the changed fields (contents line by line) and a unified diff of the contents', async () => {
    const { title, created, edited } = await pageWithHistory();
    const res = await req('GET', `/wikis/WIKI/${title}/diff?from=${created.revisionid}&to=${edited.revisionid}`, null);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from_revisionid: created.revisionid, to_revisionid: edited.revisionid });
    expect(res.body.fields).toEqual([
      { field: 'description', from: '', to: 'How to', lines: [{ type: 'added', lines: ['How to'] }] },
      {
        field: 'contents',
        from: 'Heat the joint.\nFeed the solder.',
        to: 'Heat the pad.\nFeed the solder.',
        lines: [{ type: 'removed', lines: ['Heat the joint.'] }, { type: 'added', lines: ['Heat the pad.'] }, { type: 'context', lines: ['Feed the solder.'] }],
      },
    ]);
    expect(res.body.unified).toContain(`--- WIKI/${title.replace(/_/g, ' ')}@${created.revisionid}`);
    expect(res.body.unified).toContain('-Heat the joint.');
    expect(res.body.unified).toContain('+Heat the pad.');
  });

  it('diff: 400 without from/to, 404 for a revision of another page or an unknown page', async () => {
    const { title, created } = await pageWithHistory();
    const other = await pageWithHistory();
    expect((await req('GET', `/wikis/WIKI/${title}/diff?from=${created.revisionid}`, null)).status).toBe(400);
    expect((await req('GET', `/wikis/WIKI/${title}/diff?from=x&to=${created.revisionid}`, null)).status).toBe(400);
    expect(await req('GET', `/wikis/WIKI/${title}/diff?from=${other.created.revisionid}&to=${created.revisionid}`, null)).toMatchObject({ status: 404, body: { error: true, message: 'Revision not found' } });
    expect((await req('GET', `/wikis/WIKI/No_such_page/diff?from=1&to=2`, null)).status).toBe(404);
  });

  it('a summary_of_change over 255 characters is a 422 and writes nothing; writes stay Admin-only (401, 403)', async () => {
    const { title, reverted } = await pageWithHistory();
    const res = await req('PATCH', `/wikis/WIKI/${title}?revisionid=${reverted.revisionid}`, 'admin', { contents: 'Changed', summary_of_change: 'x'.repeat(256) });
    expect(res.status).toBe(422);
    expect(fieldsOf(res)).toEqual(['summary_of_change']);
    expect((await req('GET', `/wikis/WIKI/${title}`, null)).body.revisionid).toBe(reverted.revisionid);
    expect((await req('POST', `/wikis/WIKI/${title}/revert?revisionid=${reverted.revisionid}&to_revisionid=${reverted.revisionid}&summary_of_change=x`, null)).status).toBe(401);
    expect((await req('POST', `/wikis/WIKI/${title}/revert?revisionid=${reverted.revisionid}&to_revisionid=${reverted.revisionid}&summary_of_change=x`, 'alice')).status).toBe(403);
    expect((await req('DELETE', `/wikis/WIKI/${title}?revisionid=${reverted.revisionid}&summary_of_change=${'y'.repeat(300)}`)).status).toBe(422);
  });
});
