import { catalogTestBed, wikiAdmin } from '../testing/catalog-test-bed.js';

// What the outside world (webhooks) hears of page writes: one integration event per change, in the
// write's unit of work, about the resource `wiki:<id>`.
describe('integration events of page writes', () => {
  it('tells a page\'s life: created, edited, deleted; a no-op edit says nothing', async () => {
    const bed = catalogTestBed();
    const page = await bed.createWiki.execute({ editor: wikiAdmin, fields: { namespace: 'WIKI', title: 'Soldering', contents: 'Heat' } });
    const edited = await bed.editWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Soldering', revisionid: page.state.revisionid, fields: { contents: 'Heat the joint' } });
    const same = await bed.editWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Soldering', revisionid: edited.state.revisionid, fields: { contents: 'Heat the joint' } });
    await bed.deleteWiki.execute({ editor: wikiAdmin, namespace: 'WIKI', title: 'Soldering', revisionid: same.state.revisionid });
    expect(bed.events.types()).toEqual(['wiki.created', 'wiki.edited', 'wiki.deleted']);
    expect(bed.events.published[1]).toEqual({
      type: 'wiki.edited',
      resource: `wiki:${page.id}`,
      data: { wikiid: page.id, namespace: 'WIKI', title: 'Soldering', revisionid: edited.state.revisionid, userid: wikiAdmin.userId },
      at: bed.clock.now(),
    });
  });

  it('publishes nothing when the write is refused', async () => {
    const bed = catalogTestBed();
    await bed.createWiki.execute({ editor: wikiAdmin, fields: { namespace: 'WIKI', title: 'Taken' } });
    await expect(bed.createWiki.execute({ editor: wikiAdmin, fields: { namespace: 'WIKI', title: 'Taken' } })).rejects.toThrow();
    expect(bed.events.types()).toEqual(['wiki.created']);
  });
});
