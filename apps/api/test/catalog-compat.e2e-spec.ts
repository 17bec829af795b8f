import { DEMO_ACCOUNTS, startTestApi, type ApiResponse, type TestApi } from './support/test-api.js';

/** The `field`s listed by a 422 body. */
const fieldsOf = (res: ApiResponse) => [...new Set(((res.body?.errors ?? []) as { field: string }[]).map((e) => e.field))];
const url = (title: string) => encodeURIComponent(title.replace(/ /g, '_'));

const SCHEDULE = { task: 'Replace the battery', status: 'active', triggers: [{ trigger_type: 'time', metric: 'age', unit: 'months', first_interval: 24, repeat_interval: 24 }], parts: ['Battery'] };
const STORED_SCHEDULE = {
  wiki_maintenance_scheduleid: 1,
  task: 'Replace the battery',
  status: 'active',
  triggers: [{ trigger_type: 'time', metric: 'age', unit: 'months', first_interval: 24, repeat_interval: 24, comparator: null, threshold: null }],
  guideid: null,
  parts: ['Battery'],
};

/** The original's write fields, the USER and TEAM namespaces, maintenance schedules and the ordered tree. */
describe('catalog over HTTP: the original write fields, namespaces and maintenance', () => {
  let api: TestApi;
  let admin: string;
  let alice: string;

  const post = (body: Record<string, unknown>, token = admin) => api.request('POST', '/wikis', { token, body });
  const get = (ns: string, title: string) => api.request('GET', `/wikis/${ns}/${url(title)}`);
  const patch = async (ns: string, title: string, body: Record<string, unknown>) => {
    const current = await get(ns, title);
    return api.request('PATCH', `/wikis/${ns}/${url(title)}?revisionid=${current.body.revisionid}`, { token: admin, body });
  };
  const maintenance = (title: string, query = '') => api.request('GET', `/wikis/maintenance/CATEGORY/${url(title)}${query}`);

  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.logIn(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    alice = await api.logIn(DEMO_ACCOUNTS.alice.email, DEMO_ACCOUNTS.alice.password);
  });
  afterAll(() => api.close());

  it('stores every write field of a category and shows it in GET, in the reference shapes', async () => {
    const created = await post({
      namespace: 'CATEGORY',
      title: 'Compat Phone',
      page_title: 'Compat Phone Repair',
      repairability_score: 6,
      source_revisionid: 5,
      documents: [11, { documentid: 12 }],
      maintenance_schedule: [SCHEDULE],
      table_of_contents: true,
    });
    expect(created.status).toBe(201);
    const page = await get('CATEGORY', 'Compat Phone');
    expect({ ...page.body, can_edit: true }).toEqual(created.body);
    expect(page.body).toMatchObject({
      page_title: 'Compat Phone Repair',
      display_title: 'Compat Phone',
      repairability_score: 6,
      source_revisionid: 5,
      documents: [{ documentid: 11 }, { documentid: 12 }],
      maintenance_schedule: [STORED_SCHEDULE],
      table_of_contents: true,
    });
    expect(page.body).not.toHaveProperty('suppliers');
    // The values live in the page's revisions: a revert to the first brings them back.
    const first = page.body.revisionid;
    const edited = await patch('CATEGORY', 'Compat Phone', { repairability_score: null, page_title: null, documents: [], table_of_contents: false });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ repairability_score: null, page_title: 'Compat Phone', documents: [], table_of_contents: false, maintenance_schedule: [STORED_SCHEDULE] });
    const reverted = await api.request('POST', `/wikis/CATEGORY/Compat_Phone/revert?revisionid=${edited.body.revisionid}&to_revisionid=${first}`, { token: admin });
    expect(reverted.status).toBe(200);
    expect(reverted.body).toMatchObject({ repairability_score: 6, page_title: 'Compat Phone Repair', documents: [{ documentid: 11 }, { documentid: 12 }] });
  });

  it('keeps the revision when the same values are sent back (a no-op), and keeps schedule ids sent back', async () => {
    const page = (await get('CATEGORY', 'Compat Phone')).body;
    const again = await patch('CATEGORY', 'Compat Phone', { maintenance_schedule: page.maintenance_schedule, repairability_score: page.repairability_score, table_of_contents: page.table_of_contents });
    expect(again.status).toBe(200);
    expect(again.body.revisionid).toBe(page.revisionid);
    const added = await patch('CATEGORY', 'Compat Phone', { maintenance_schedule: [{ task: 'Clean the port' }, page.maintenance_schedule[0]] });
    expect(added.body.maintenance_schedule.map((s: { wiki_maintenance_scheduleid: number; task: string }) => [s.wiki_maintenance_scheduleid, s.task])).toEqual([
      [2, 'Clean the port'],
      [1, 'Replace the battery'],
    ]);
  });

  it('stores the suppliers of an ITEM page, and table_of_contents on any page (an integration posts it)', async () => {
    const item = await post({ namespace: 'ITEM', title: 'Compat Battery', suppliers: [{ 'part_#': 'CB-1', type: 'OEM', supplier: 'Parts Ltd', url: 'https://parts.example.com/cb1' }] });
    expect(item.status).toBe(201);
    expect((await get('ITEM', 'Compat Battery')).body.suppliers).toEqual([{ 'part_#': 'CB-1', type: 'OEM', supplier: 'Parts Ltd', url: 'https://parts.example.com/cb1' }]);
    const wiki = await post({ namespace: 'WIKI', title: 'Compat Contents', contents: '== One ==', table_of_contents: true });
    expect(wiki.status).toBe(201);
    expect((await get('WIKI', 'Compat Contents')).body).toMatchObject({ table_of_contents: true, source_revisionid: null });
    expect((await get('WIKI', 'Compat Contents')).body).not.toHaveProperty('maintenance_schedule');
  });

  it('refuses bad values and the fields of another namespace (422, each field named), and writes nothing', async () => {
    const before = (await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM wiki_pages'))[0]!.n;
    const cases: [Record<string, unknown>, string][] = [
      [{ namespace: 'CATEGORY', repairability_score: 11 }, 'repairability_score'],
      [{ namespace: 'WIKI', repairability_score: 3 }, 'repairability_score'],
      [{ namespace: 'CATEGORY', suppliers: [{ supplier: 'x' }] }, 'suppliers'],
      [{ namespace: 'ITEM', suppliers: [{ supplier: 'x', url: 'javascript:alert(1)' }] }, 'suppliers'],
      [{ namespace: 'CATEGORY', documents: ['seven'] }, 'documents'],
      [{ namespace: 'CATEGORY', maintenance_schedule: [{ task: 'x', triggers: [{ trigger_type: 'moon' }] }] }, 'maintenance_schedule'],
      [{ namespace: 'CATEGORY', maintenance_schedule: 'monthly' }, 'maintenance_schedule'],
      [{ namespace: 'CATEGORY', page_title: { a: 1 } }, 'page_title'],
      [{ namespace: 'CATEGORY', source_revisionid: 'x' }, 'source_revisionid'],
      [{ namespace: 'WIKI', table_of_contents: 'yes' }, 'table_of_contents'],
    ];
    for (const [fields, field] of cases) {
      const res = await post({ title: 'Compat Refused', ...fields });
      expect({ fields, status: res.status, named: fieldsOf(res) }).toEqual({ fields, status: 422, named: [field] });
    }
    // A field the original never had stays an unknown field.
    const unknown = await post({ namespace: 'WIKI', title: 'Compat Refused', wiki_color: 'red' });
    expect(unknown.status).toBe(422);
    expect(unknown.text).toMatch(/wiki_color/);
    const stale = await patch('CATEGORY', 'Compat Phone', { repairability_score: -1 });
    expect(stale.status).toBe(422);
    expect((await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM wiki_pages'))[0]!.n).toBe(before);
    // Writes stay the Admin's.
    expect((await post({ namespace: 'WIKI', title: 'Compat By Alice', table_of_contents: true }, alice)).status).toBe(403);
  });

  describe('GET /wikis/maintenance/CATEGORY/{title}', () => {
    beforeAll(async () => {
      expect((await post({ namespace: 'CATEGORY', title: 'Compat Child', parent: 'Compat Phone' })).status).toBe(201);
      expect((await post({ namespace: 'CATEGORY', title: 'Compat Grandchild', parent: 'Compat Child' })).status).toBe(201);
      expect((await post({ namespace: 'CATEGORY', title: 'Compat Lonely' })).status).toBe(201);
    });

    it("answers a category's own schedules, else its closest ancestor's (inheritedFrom), else none", async () => {
      const phone = (await get('CATEGORY', 'Compat Phone')).body;
      const own = await maintenance('Compat Phone');
      expect(own.status).toBe(200);
      expect(own.body).toEqual({ schedules: phone.maintenance_schedule, inheritedFrom: null, langid: 'en', revisionid: phone.revisionid });
      const inherited = await maintenance('Compat Grandchild', '?langid=de');
      expect(inherited.body).toEqual({ schedules: phone.maintenance_schedule, inheritedFrom: 'Compat Phone', langid: 'de', revisionid: phone.revisionid });
      const lonely = (await get('CATEGORY', 'Compat Lonely')).body;
      expect((await maintenance('Compat Lonely', '?langid=<script>')).body).toEqual({ schedules: [], inheritedFrom: null, langid: 'en', revisionid: lonely.revisionid });
      // The child's own schedules win over the ancestor's.
      expect((await patch('CATEGORY', 'Compat Child', { maintenance_schedule: [{ task: 'Child task' }] })).status).toBe(200);
      expect((await maintenance('Compat Grandchild')).body).toMatchObject({ inheritedFrom: 'Compat Child', schedules: [{ task: 'Child task' }] });
    });

    it('is a 404 for an unknown or deleted category and for another namespace', async () => {
      expect((await maintenance('No Such Compat')).status).toBe(404);
      expect((await maintenance('No Such Compat')).body).toEqual({ error: true, message: 'Wiki not found' });
      expect((await api.request('GET', '/wikis/maintenance/WIKI/Compat_Contents')).status).toBe(404);
      const lonely = (await get('CATEGORY', 'Compat Lonely')).body;
      expect((await api.request('DELETE', `/wikis/CATEGORY/Compat_Lonely?revisionid=${lonely.revisionid}`, { token: admin })).status).toBe(204);
      expect((await maintenance('Compat Lonely')).status).toBe(404);
    });
  });

  describe('USER and TEAM pages', () => {
    it('are created under the id of a user or a team, listed and read like any page', async () => {
      const users = (await api.request('GET', '/users?limit=1')).body as { userid: number }[];
      const userid = String(users[0]!.userid);
      const teamid = String((await api.request('GET', '/teams')).body[0].teamid);
      const user = await post({ namespace: 'USER', title: userid, contents: "About '''me'''." });
      expect(user.status).toBe(201);
      expect(user.body).toMatchObject({ namespace: 'USER', title: userid, url: expect.stringMatching(new RegExp(`/User/${userid}$`)) });
      expect((await post({ namespace: 'TEAM', title: teamid })).status).toBe(201);
      expect((await get('USER', userid)).body.contents_rendered).toMatch(/<strong>me<\/strong>/);
      expect((await api.request('GET', '/wikis/USER')).body.map((p: { title: string }) => p.title)).toContain(userid);
      expect((await api.request('GET', '/wikis/team')).body.map((p: { title: string }) => p.title)).toEqual([teamid]);
    });

    it('refuse a title that is not an id (422) or no user (422)', async () => {
      for (const [namespace, title] of [
        ['USER', 'alice'],
        ['TEAM', '0'],
        ['USER', '999999999'],
      ]) {
        const res = await post({ namespace: namespace!, title: title! });
        expect({ namespace, status: res.status, named: fieldsOf(res) }).toEqual({ namespace, status: 422, named: ['title'] });
      }
    });
  });

  describe('GET /wikis/CATEGORY?display=hierarchyOrder', () => {
    it('answers the tree as ordered {title, display_title, children} nodes, the same tree as display=hierarchy', async () => {
      const ordered = await api.request('GET', '/wikis/CATEGORY?display=hierarchyOrder');
      expect(ordered.status).toBe(200);
      type OrderedNode = { title: string; display_title: string; children: OrderedNode[] };
      const asTree = (nodes: OrderedNode[]): Record<string, unknown> => Object.fromEntries(nodes.map((n) => [n.title, n.children.length ? asTree(n.children) : null]));
      expect(asTree(ordered.body)).toEqual((await api.request('GET', '/wikis/CATEGORY?display=hierarchy')).body);
      const phone = (ordered.body as OrderedNode[]).find((n) => n.title === 'Compat Phone')!;
      expect(phone).toEqual({ title: 'Compat Phone', display_title: 'Compat Phone', children: [{ title: 'Compat Child', display_title: 'Compat Child', children: [{ title: 'Compat Grandchild', display_title: 'Compat Grandchild', children: [] }] }] });
      const titles = (ordered.body as OrderedNode[]).map((n) => n.title);
      expect(titles).toEqual([...titles].sort());
    });

    it('is a 400 for another namespace or an unknown display', async () => {
      expect((await api.request('GET', '/wikis/WIKI?display=hierarchyOrder')).status).toBe(400);
      expect((await api.request('GET', '/wikis/CATEGORY?display=tree')).status).toBe(400);
    });
  });
});
