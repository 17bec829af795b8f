import { author, guidesTestBed, linesOf } from '../testing/index.js';

// What the outside world (webhooks) hears of guide writes: one integration event per change, in
// the write's unit of work, about the resource `guide:<id>`.
describe('integration events of guide writes', () => {
  it('tells a guide\'s life: created, edited, steps changed, published, unpublished, deleted', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const edited = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: 'A new title' } });
    const stepped = await bed.addStep.execute({ editor: author, guideId: guide.id, step: { lines: linesOf('Open it') } });
    const published = await bed.setGuidePublic.execute({ editor: author, guideId: guide.id, revisionid: stepped.state.revisionid, isPublic: true });
    const unpublished = await bed.setGuidePublic.execute({ editor: author, guideId: guide.id, revisionid: published.state.revisionid, isPublic: false });
    await bed.deleteGuide.execute({ editor: author, guideId: guide.id, revisionid: unpublished.state.revisionid });
    expect(bed.events.types()).toEqual(['guide.created', 'guide.edited', 'guide.steps_changed', 'guide.published', 'guide.unpublished', 'guide.deleted']);
    expect(new Set(bed.events.published.map((e) => e.resource))).toEqual(new Set([`guide:${guide.id}`]));
    expect(bed.events.published[1]).toEqual({
      type: 'guide.edited',
      resource: `guide:${guide.id}`,
      data: { guideid: guide.id, revisionid: edited.state.revisionid, userid: author.userId, public: false },
      at: bed.clock.now(),
    });
  });

  it('says created and published for a guide created public, and nothing for a no-op edit', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide({ public: true });
    await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { title: guide.state.title } });
    expect(bed.events.types()).toEqual(['guide.created', 'guide.published']);
  });
});
