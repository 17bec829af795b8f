import { FixedClock, ImmediateUnitOfWork } from '@rc/shared-kernel/testing';
import { WikiPage, type WikiId } from '../model/wiki-page.js';
import { WikiQueries } from '../ports/wiki-queries.js';
import { WikiRepository, WikiTags } from '../ports/wiki.repository.js';
import { catalogTestBed, wikiAdmin } from './catalog-test-bed.js';
import { InMemoryWikiQueries } from './in-memory-wiki-queries.js';
import { InMemoryWikiTags } from './in-memory-wiki-tags.js';
import { InMemoryWikiRepository } from './in-memory-wiki.repository.js';
import { WIKI_PORT_SCENARIOS } from './wiki-port-scenarios.js';

const T0 = new Date('2026-01-01T00:00:00Z');

describe('the in-memory catalog fakes', () => {
  it('implement the ports', () => {
    const wikis = new InMemoryWikiRepository();
    expect(wikis).toBeInstanceOf(WikiRepository);
    expect(new InMemoryWikiQueries(wikis)).toBeInstanceOf(WikiQueries);
    expect(new InMemoryWikiTags()).toBeInstanceOf(WikiTags);
  });

  // The same scenarios run against the SQL adapters in the infra tests, with the same expectations.
  describe.each(WIKI_PORT_SCENARIOS.map((s) => [s.name, s] as const))('behave like the SQL adapters: %s', (_name, scenario) => {
    it('observes what the SQL adapters observe', async () => {
      const wikis = new InMemoryWikiRepository();
      const tags = new InMemoryWikiTags();
      const observed = await scenario.run({ wikis, queries: new InMemoryWikiQueries(wikis, tags), tags, clock: new FixedClock(), uow: new ImmediateUnitOfWork() });
      expect(observed).toEqual(scenario.expected);
    });
  });

  describe('InMemoryWikiRepository', () => {
    it('hands out increasing ids and one revision counter shared by every page', async () => {
      const wikis = new InMemoryWikiRepository();
      expect([await wikis.nextId(), await wikis.nextId()]).toEqual([1, 2]);
      const a = WikiPage.create(1 as WikiId, wikiAdmin, { namespace: 'WIKI', title: 'A' }, null, T0);
      const b = WikiPage.create(2 as WikiId, wikiAdmin, { namespace: 'INFO', title: 'B' }, null, T0);
      await wikis.save(a);
      await wikis.save(b);
      expect([a.state.revisionid, b.state.revisionid]).toEqual([1, 2]);
      expect(wikis.lastRevision).toBe(2);
    });

    it('stores copies: a loaded page changes the store only once saved, and a save without changes stores nothing', async () => {
      const bed = catalogTestBed();
      const page = await bed.page('WIKI', 'Page', { info: [{ name: 'a', value: 'b' }] });
      const loaded = (await bed.wikis.findByTitle('WIKI', 'Page'))!;
      expect(loaded).not.toBe(page);
      loaded.edit(wikiAdmin, { contents: 'changed' }, undefined, T0);
      expect(bed.wikis.byId(page.id)!.state.contents).toBe('');
      await bed.wikis.save(WikiPage.restore(bed.wikis.byId(page.id)!.state));
      expect(bed.wikis.lastRevision).toBe(1);
      await bed.wikis.save(loaded);
      expect(bed.wikis.byId(page.id)!.state.contents).toBe('changed');
      (bed.wikis.byId(page.id)!.state.info as unknown as { name: string }[])[0]!.name = 'mutated';
      expect(bed.wikis.byId(page.id)!.state.info[0]!.name).toBe('a');
    });

    it('refuses a second live page with the same namespace and title, as the unique index does', async () => {
      const wikis = new InMemoryWikiRepository();
      await wikis.save(WikiPage.create(1 as WikiId, wikiAdmin, { namespace: 'WIKI', title: 'Same' }, null, T0));
      await expect(wikis.save(WikiPage.create(2 as WikiId, wikiAdmin, { namespace: 'WIKI', title: 'Same' }, null, T0))).rejects.toThrow(/Unique violation/);
      await wikis.save(WikiPage.create(3 as WikiId, wikiAdmin, { namespace: 'ITEM', title: 'Same' }, null, T0));
    });

    it('refuses a parent that does not exist, as the foreign key does', async () => {
      const wikis = new InMemoryWikiRepository();
      await expect(wikis.save(WikiPage.create(1 as WikiId, wikiAdmin, { namespace: 'CATEGORY', title: 'Orphan' }, 99, T0))).rejects.toThrow(/Foreign key violation/);
    });

    it('keeps each revision with its editor and time', async () => {
      const bed = catalogTestBed();
      const page = await bed.page('WIKI', 'Page');
      bed.clock.advance(5000);
      await bed.edit('WIKI', 'Page', { contents: 'x' }, { userId: 9, isAdmin: true });
      const [first, second] = bed.wikis.revisionsWithEditors(page.id);
      expect([first!.editorId, second!.editorId]).toEqual([1, 9]);
      expect(second!.at).toEqual(bed.clock.now());
      expect(second!.state.contents).toBe('x');
      expect(bed.wikis.revision(page.id, 999)).toBeNull();
    });
  });
});
