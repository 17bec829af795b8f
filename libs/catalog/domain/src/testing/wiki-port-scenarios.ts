import { RecordingIntegrationEvents, type FixedClock, type ImmediateUnitOfWork } from '@rc/shared-kernel/testing';
import { InMemoryWikiImages } from './in-memory-wiki-images.js';
import type { UnitOfWork } from '@rc/shared-kernel';
import type { Namespace, WikiEditor, WikiInput, WikiPage, WikiRef } from '../model/wiki-page.js';
import type { WikiQueries } from '../ports/wiki-queries.js';
import type { WikiRepository, WikiTags } from '../ports/wiki.repository.js';
import { CreateWiki, DeleteWiki, EditWiki, type WikiDeps } from '../use-cases/wiki.use-cases.js';

/** The ports a scenario runs against: the in-memory fakes, or the SQL adapters on a fresh database. */
export interface WikiPortsUnderTest {
  readonly wikis: WikiRepository;
  readonly queries: WikiQueries;
  readonly tags: WikiTags;
  readonly clock: FixedClock;
  readonly uow: UnitOfWork | ImmediateUnitOfWork;
}

/**
 * One behaviour of the catalog ports, written once and run against both implementations with the
 * same expected observation, so the fakes the domain tests use are held to what the SQL adapters
 * do. Observations never hold raw ids or revision ids (sequences differ between runs): only titles,
 * counts, booleans and orders.
 */
export interface WikiPortScenario {
  readonly name: string;
  run(ports: WikiPortsUnderTest): Promise<unknown>;
  readonly expected: unknown;
}

const ADMIN: WikiEditor = { userId: 1, isAdmin: true };
const OTHER: WikiEditor = { userId: 2, isAdmin: true };

function helpers(ports: WikiPortsUnderTest) {
  const deps: WikiDeps = { wikis: ports.wikis, images: new InMemoryWikiImages(), clock: ports.clock, uow: ports.uow, events: new RecordingIntegrationEvents() };
  const create = new CreateWiki(deps);
  const edit = new EditWiki(deps);
  const remove = new DeleteWiki(deps);
  const h = {
    page: (namespace: Namespace, title: string, fields: WikiInput = {}, editor = ADMIN) => create.execute({ editor, fields: { namespace, title, ...fields } }),
    category: (title: string, parent: string | null = null) => h.page('CATEGORY', title, { parent }),
    edit: async (page: WikiPage, fields: WikiInput, editor = ADMIN) => {
      const current = (await ports.wikis.findByTitle(page.state.namespace, page.state.title))!;
      return edit.execute({ editor, namespace: page.state.namespace, title: page.state.title, revisionid: current.state.revisionid, fields });
    },
    remove: async (page: WikiPage) => {
      const current = (await ports.wikis.findByTitle(page.state.namespace, page.state.title))!;
      await remove.execute({ editor: ADMIN, namespace: page.state.namespace, title: page.state.title, revisionid: current.state.revisionid });
    },
  };
  return h;
}

const titles = (rows: readonly { title: string }[]) => rows.map((r) => r.title);
const page = { limit: 20, offset: 0 };

export const WIKI_PORT_SCENARIOS: readonly WikiPortScenario[] = [
  {
    name: 'findByTitle answers the live page, else the latest deleted one, and nothing for other namespaces',
    async run(ports) {
      const h = helpers(ports);
      const first = await h.page('WIKI', 'Alpha', { contents: 'one' });
      await h.remove(first);
      const second = await h.page('WIKI', 'Alpha', { contents: 'two' });
      const live = await ports.wikis.findByTitle('WIKI', 'Alpha');
      await h.remove(second);
      const latestDeleted = await ports.wikis.findByTitle('WIKI', 'Alpha', true);
      return {
        live: { isSecond: live?.id === second.id, contents: live?.state.contents, deleted: live?.isDeleted },
        afterBothDeleted: { isSecond: latestDeleted?.id === second.id, deleted: latestDeleted?.isDeleted },
        otherNamespace: await ports.wikis.findByTitle('INFO', 'Alpha'),
        caseMatters: await ports.wikis.findByTitle('WIKI', 'alpha'),
      };
    },
    expected: {
      live: { isSecond: true, contents: 'two', deleted: false },
      afterBothDeleted: { isSecond: true, deleted: true },
      otherNamespace: null,
      caseMatters: null,
    },
  },
  {
    name: 'save stores a new, increasing revision with a snapshot; a no-op edit stores nothing, even after a round trip of related pages and info rows',
    async run(ports) {
      const h = helpers(ports);
      await h.page('WIKI', 'Target');
      const created = await h.page('WIKI', 'Versioned', { contents: 'v1', info: [{ name: 'Model', value: 'A1' }], related: ['Target'] });
      const r1 = created.state.revisionid;
      const edited = await h.edit(created, { contents: 'v2' });
      const r2 = edited.state.revisionid;
      const same = await h.edit(created, { contents: 'v2', info: [{ name: 'Model', value: 'A1' }], related: [{ namespace: 'WIKI', title: 'Target' }] });
      const first = await ports.wikis.snapshot(created.id, r1);
      const other = await h.page('WIKI', 'Unrelated');
      return {
        increasing: r1 > 0 && r2 > r1,
        noOpKeepsRevision: same.state.revisionid === r2,
        firstSnapshot: { contents: first?.contents, info: first?.info, related: first?.related, revisionid: first?.revisionid === r1 },
        unknownRevision: await ports.wikis.snapshot(created.id, r2 + 1000),
        revisionOfAnotherPage: await ports.wikis.snapshot(other.id, r1),
      };
    },
    expected: {
      increasing: true,
      noOpKeepsRevision: true,
      firstSnapshot: { contents: 'v1', info: [{ name: 'Model', value: 'A1' }], related: [{ namespace: 'WIKI', title: 'Target' }], revisionid: true },
      unknownRevision: null,
      revisionOfAnotherPage: null,
    },
  },
  {
    // Titles whose order is the same under any collation (the fake compares code units).
    name: 'the category tree, ancestors (closest first), children and leaves leave deleted pages out',
    async run(ports) {
      const h = helpers(ports);
      await h.category('Electronics');
      await h.category('Phone', 'Electronics');
      const smartphone = await h.category('Smartphone', 'Phone');
      await h.category('Smartphone 12', 'Smartphone');
      const gone = await h.category('Pager', 'Phone');
      await h.category('Appliance');
      await h.page('WIKI', 'Not A Category');
      await h.remove(gone);
      const tree = await ports.queries.categoryTree();
      const title = (id: number | null) => tree.find((n) => n.id === id)?.title ?? null;
      return {
        tree: tree.map((n) => [n.title, title(n.parentId)]),
        ancestors: titles(await ports.queries.ancestors(smartphone.id)),
        children: titles(await ports.queries.children((await ports.wikis.findByTitle('CATEGORY', 'Phone'))!.id)),
        leaves: titles(await ports.queries.list('CATEGORY', page, { leavesOnly: true })),
      };
    },
    expected: {
      tree: [
        ['Appliance', null],
        ['Electronics', null],
        ['Phone', 'Electronics'],
        ['Smartphone', 'Phone'],
        ['Smartphone 12', 'Smartphone'],
      ],
      ancestors: ['Phone', 'Electronics'],
      children: ['Smartphone'],
      leaves: ['Appliance', 'Smartphone 12'],
    },
  },
  {
    name: 'lists are ordered by title and paged; with modifiedSince only newer pages, newest first',
    async run(ports) {
      const h = helpers(ports);
      for (const t of ['Delta', 'Alpha', 'Charlie']) await h.page('INFO', t);
      const since = ports.clock.now();
      ports.clock.advance(60_000);
      await h.page('INFO', 'Bravo');
      ports.clock.advance(60_000);
      await h.edit((await ports.wikis.findByTitle('INFO', 'Delta'))!, { contents: 'changed' });
      await h.page('WIKI', 'Elsewhere');
      const list = await ports.queries.list('INFO', page, {});
      return {
        all: titles(list),
        paged: titles(await ports.queries.list('INFO', { limit: 2, offset: 1 }, {})),
        since: titles(await ports.queries.list('INFO', page, { modifiedSince: new Date(since.getTime() + 1) })),
        summary: list.map((s) => ({ namespace: s.namespace, langid: s.langid, authorId: s.authorId, displayTitle: s.displayTitle })).at(0),
      };
    },
    expected: {
      all: ['Alpha', 'Bravo', 'Charlie', 'Delta'],
      paged: ['Bravo', 'Charlie'],
      since: ['Delta', 'Bravo'],
      summary: { namespace: 'INFO', langid: 'en', authorId: 1, displayTitle: 'Alpha' },
    },
  },
  {
    name: 'removedSince lists the pages of a namespace deleted since, newest first and paged, with the title they had',
    async run(ports) {
      const h = helpers(ports);
      await h.remove(await h.page('INFO', 'Long Gone'));
      ports.clock.advance(60_000);
      const since = ports.clock.now();
      const [alpha, bravo, other] = [await h.page('INFO', 'Alpha'), await h.page('INFO', 'Bravo'), await h.page('WIKI', 'Elsewhere')];
      await h.page('INFO', 'Kept');
      await h.remove(alpha);
      ports.clock.advance(1000);
      await h.remove(bravo);
      await h.remove(other);
      const removed = await ports.queries.removedSince('INFO', since, page);
      return {
        removed: titles(removed),
        paged: titles(await ports.queries.removedSince('INFO', since, { limit: 1, offset: 1 })),
        dated: removed.map((t) => t.removedAt.getTime() - since.getTime()),
        namespaces: removed.map((t) => t.namespace),
      };
    },
    expected: { removed: ['Bravo', 'Alpha'], paged: ['Alpha'], dated: [1000, 0], namespaces: ['INFO', 'INFO'] },
  },
  {
    name: 'categoryId, isInSubtree and liveChildren answer from live pages (and the parent chain)',
    async run(ports) {
      const h = helpers(ports);
      const [a, b, c] = [await h.category('A'), await h.category('B', 'A'), await h.category('C', 'B')];
      const d = await h.category('D', 'A');
      await h.page('WIKI', 'W');
      await h.remove(d);
      return {
        categoryIdOfC: (await ports.wikis.categoryId('C')) === c.id,
        wikiTitle: await ports.wikis.categoryId('W'),
        deleted: await ports.wikis.categoryId('D'),
        cUnderA: await ports.wikis.isInSubtree(a.id, c.id),
        aUnderC: await ports.wikis.isInSubtree(c.id, a.id),
        self: await ports.wikis.isInSubtree(b.id, b.id),
        childrenOfA: await ports.wikis.liveChildren(a.id),
        childrenOfC: await ports.wikis.liveChildren(c.id),
      };
    },
    expected: { categoryIdOfC: true, wikiTitle: null, deleted: null, cUnderA: true, aUnderC: false, self: true, childrenOfA: 1, childrenOfC: 0 },
  },
  {
    name: 'existing and byRefs keep the order asked for and leave out deleted and unknown pages',
    async run(ports) {
      const h = helpers(ports);
      await h.page('WIKI', 'Kept');
      await h.page('ITEM', 'Spudger');
      await h.category('Phone');
      await h.remove(await h.page('WIKI', 'Gone'));
      const refs: WikiRef[] = [
        { namespace: 'ITEM', title: 'Spudger' },
        { namespace: 'WIKI', title: 'Gone' },
        { namespace: 'WIKI', title: 'Nowhere' },
        { namespace: 'CATEGORY', title: 'Phone' },
        { namespace: 'WIKI', title: 'Phone' },
        { namespace: 'WIKI', title: 'Kept' },
      ];
      return {
        existing: await ports.wikis.existing(refs),
        byRefs: (await ports.queries.byRefs(refs)).map((s) => `${s.namespace}:${s.title}`),
        none: [await ports.wikis.existing([]), await ports.queries.byRefs([])],
      };
    },
    expected: {
      existing: [
        { namespace: 'ITEM', title: 'Spudger' },
        { namespace: 'CATEGORY', title: 'Phone' },
        { namespace: 'WIKI', title: 'Kept' },
      ],
      byRefs: ['ITEM:Spudger', 'CATEGORY:Phone', 'WIKI:Kept'],
      none: [[], []],
    },
  },
  {
    name: 'contributors: the creator first, then by revisions, then by first revision, counted up to the revision read',
    async run(ports) {
      const h = helpers(ports);
      const created = await h.page('WIKI', 'Shared', { contents: 'by admin' });
      await h.edit(created, { contents: 'other 1' }, OTHER);
      await h.edit(created, { contents: 'other 2' }, OTHER);
      const third = await h.edit(created, { contents: 'admin again' });
      await h.edit(created, { contents: 'third person' }, { userId: 7, isAdmin: true });
      await h.edit(created, { contents: 'fourth person' }, { userId: 8, isAdmin: true });
      const now = (await ports.wikis.findByTitle('WIKI', 'Shared'))!;
      const shape = (rows: { userId: number; revisions: number; firstRevisionid: number }[]) => rows.map((r) => [r.userId, r.revisions, r.firstRevisionid >= created.state.revisionid]);
      return {
        current: shape(await ports.queries.contributors(now.id, now.state.revisionid)),
        atThird: shape(await ports.queries.contributors(now.id, third.state.revisionid)),
        atFirst: shape(await ports.queries.contributors(now.id, created.state.revisionid)),
      };
    },
    expected: {
      current: [
        [1, 2, true],
        [2, 2, true],
        [7, 1, true],
        [8, 1, true],
      ],
      atThird: [
        [1, 2, true],
        [2, 2, true],
      ],
      atFirst: [[1, 1, true]],
    },
  },
  {
    name: 'tags: each once, listed alphabetically, removal says whether there was one',
    async run(ports) {
      const h = helpers(ports);
      const p = await h.page('WIKI', 'Tagged');
      const at = ports.clock.now();
      const added = [await ports.tags.add(p.id, 'battery', at), await ports.tags.add(p.id, 'Apple', at), await ports.tags.add(p.id, 'battery', at)];
      const listed = await ports.tags.list(p.id);
      const removed = [await ports.tags.remove(p.id, 'battery'), await ports.tags.remove(p.id, 'battery')];
      return { added, listed, removed, after: await ports.tags.list(p.id) };
    },
    expected: { added: [true, true, false], listed: ['Apple', 'battery'], removed: [true, false], after: ['Apple'] },
  },
  {
    name: "maintenance: the page's own schedules, else the closest live ancestor's, else none; details survive a save and a reload; byIds answers live pages only",
    async run(ports) {
      const h = helpers(ports);
      const root = await h.page('CATEGORY', 'Root', { maintenance_schedule: [{ task: 'Root task', triggers: [{ trigger_type: 'usage', metric: 'cycles', unit: 'count', threshold: 500, comparator: '>=' }] }], repairability_score: 4 });
      const middle = await h.page('CATEGORY', 'Middle', { parent: 'Root', maintenance_schedule: [{ task: 'Middle task' }] });
      const leaf = await h.page('CATEGORY', 'Leaf', { parent: 'Middle' });
      const lonely = await h.page('CATEGORY', 'Lonely');
      const item = await h.page('ITEM', 'Part', { suppliers: [{ supplier: 'Parts Ltd', url: 'https://parts.example.com/p' }], table_of_contents: true });
      const shape = (m: Awaited<ReturnType<typeof ports.queries.maintenance>>) => m && { title: m.title, tasks: m.schedules.map((s) => s.task), triggers: m.schedules[0]!.triggers };
      const before = { leaf: shape(await ports.queries.maintenance(leaf.id)), lonely: await ports.queries.maintenance(lonely.id) };
      await h.edit(middle, { maintenance_schedule: [] });
      const reloaded = (await ports.wikis.findByTitle('ITEM', 'Part'))!;
      return {
        before,
        afterMiddleCleared: shape(await ports.queries.maintenance(leaf.id)),
        own: shape(await ports.queries.maintenance(root.id)),
        details: { ...reloaded.state.details },
        score: (await ports.wikis.findByTitle('CATEGORY', 'Root'))!.state.details.repairabilityScore,
        byIds: titles(await ports.queries.byIds([item.id, lonely.id, 999_999])).sort(),
      };
    },
    expected: {
      before: { leaf: { title: 'Middle', tasks: ['Middle task'], triggers: [] }, lonely: null },
      afterMiddleCleared: { title: 'Root', tasks: ['Root task'], triggers: [{ trigger_type: 'usage', metric: 'cycles', unit: 'count', first_interval: null, repeat_interval: null, comparator: '>=', threshold: 500 }] },
      own: { title: 'Root', tasks: ['Root task'], triggers: [{ trigger_type: 'usage', metric: 'cycles', unit: 'count', first_interval: null, repeat_interval: null, comparator: '>=', threshold: 500 }] },
      details: {
        pageTitle: null,
        repairabilityScore: null,
        sourceRevisionid: null,
        suppliers: [{ 'part_#': '', type: '', supplier: 'Parts Ltd', url: 'https://parts.example.com/p' }],
        documentIds: [],
        maintenanceSchedule: [],
        tableOfContents: true,
      },
      score: 4,
      byIds: ['Lonely', 'Part'],
    },
  },
  {
    name: "parts: a page's tree, tags, related pages, contributors and views in one read, each as its own query answers it",
    async run(ports) {
      const h = helpers(ports);
      await h.category('Root');
      await h.category('Middle', 'Root');
      const page = await h.page('CATEGORY', 'Device', { parent: 'Middle', contents: 'v1' });
      await h.category('Zeta child', 'Device');
      await h.category('Alpha child', 'Device');
      const gone = await h.category('Gone child', 'Device');
      await h.remove(gone);
      await h.page('ITEM', 'Spudger');
      const dropped = await h.page('WIKI', 'Dropped');
      await h.edit(page, { related: [{ namespace: 'ITEM', title: 'Spudger' }, { namespace: 'WIKI', title: 'Dropped' }, { namespace: 'CATEGORY', title: 'Root' }] });
      await h.remove(dropped);
      const second = await h.edit(page, { contents: 'v2' }, OTHER);
      await h.edit(page, { contents: 'v3' }, OTHER);
      await ports.tags.add(page.id, 'screen', ports.clock.now());
      await ports.tags.add(page.id, 'Apple', ports.clock.now());
      const now = (await ports.wikis.findByTitle('CATEGORY', 'Device'))!;
      const at = (revisionid: number) => ports.queries.parts({ id: now.id, namespace: now.state.namespace, revisionid, related: now.state.related });
      const current = await at(now.state.revisionid);
      const separately = {
        ancestors: await ports.queries.ancestors(now.id),
        children: await ports.queries.children(now.id),
        tags: await ports.tags.list(now.id),
        related: await ports.queries.byRefs(now.state.related),
        contributors: await ports.queries.contributors(now.id, now.state.revisionid),
        views: await ports.queries.views(now.id),
      };
      const article = await h.page('WIKI', 'Article', { related: [{ namespace: 'CATEGORY', title: 'Device' }] });
      const plain = await ports.queries.parts({ id: article.id, namespace: 'WIKI', revisionid: article.state.revisionid, related: article.state.related });
      return {
        sameAsEachQuery: current.ancestors.length > 0 && JSON.stringify(current) === JSON.stringify(separately),
        ancestors: titles(current.ancestors),
        children: titles(current.children),
        tags: current.tags,
        related: current.related.map((r) => `${r.namespace}:${r.title}`),
        contributors: current.contributors.map((c) => [c.userId, c.revisions]),
        atSecond: (await at(second.state.revisionid)).contributors.map((c) => [c.userId, c.revisions]),
        views: current.views,
        article: { ancestors: plain.ancestors, children: plain.children, tags: plain.tags, related: titles(plain.related), contributors: plain.contributors.length },
      };
    },
    expected: {
      sameAsEachQuery: true,
      ancestors: ['Middle', 'Root'],
      children: ['Alpha child', 'Zeta child'],
      tags: ['Apple', 'screen'],
      related: ['ITEM:Spudger', 'CATEGORY:Root'],
      contributors: [
        [1, 2],
        [2, 2],
      ],
      atSecond: [
        [1, 2],
        [2, 1],
      ],
      views: 0,
      article: { ancestors: [], children: [], tags: [], related: ['Device'], contributors: 1 },
    },
  },
];
