import { InvalidGuideError } from '../guides.errors.js';
import { admin, author, DEFAULT_GUIDE_FIELDS, guidesTestBed, linesOf, rejectionOf } from '../testing/index.js';

async function violationsOf(promise: Promise<unknown>) {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(InvalidGuideError);
  return (error as InvalidGuideError).violations.map((v) => v.field);
}

// The test bed's images 1-9 are the author's, 10-19 another user's; 500 is no image.
describe('images a guide shows', () => {
  it("takes the writer's own image as the guide's image", async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, image: 3 } });
    expect((await bed.stored(guide.id)).state.imageId).toBe(3);
  });

  it("refuses another user's image or an unknown id as the guide's image, and writes nothing", async () => {
    const bed = guidesTestBed();
    expect(await violationsOf(bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, image: 12 } }))).toEqual(['image']);
    expect(await violationsOf(bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, image: 500 } }))).toEqual(['image']);
    const guide = await bed.createGuide();
    expect(await violationsOf(bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: guide.state.revisionid, fields: { image: 12 } }))).toEqual(['image']);
    expect((await bed.stored(guide.id)).state.imageId).toBeNull();
  });

  it("takes an image public content shows; an admin too is refused another user's unshown image", async () => {
    const bed = guidesTestBed();
    bed.images.shown(12);
    const guide = await bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, image: 12 } });
    expect(guide.state.imageId).toBe(12);
    expect(await violationsOf(bed.createGuideUseCase.execute({ editor: admin, fields: { ...DEFAULT_GUIDE_FIELDS, image: 13 } }))).toEqual(['image']);
  });

  it('lets an editor keep an image the guide already shows', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, image: 4 } });
    const edited = await bed.editGuide.execute({ editor: admin, guideId: guide.id, revisionid: guide.state.revisionid, fields: { image: 4, title: 'Kept' } });
    expect(edited.state.imageId).toBe(4);
  });

  it('names each step image that is not usable (media.data[i]) and adds no step', async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuide();
    const fields = await violationsOf(
      bed.addStep.execute({ editor: author, guideId: guide.id, step: { lines: linesOf('Open'), media: { type: 'image', data: [1, 12, 500] } } }),
    );
    expect(fields).toEqual(['media.data[1]', 'media.data[2]']);
    expect((await bed.stored(guide.id)).steps).toHaveLength(0);
    const after = await bed.addStep.execute({ editor: author, guideId: guide.id, step: { lines: linesOf('Open'), media: { type: 'image', data: [1, 2] } } });
    const step = after.steps[0]!;
    expect(await violationsOf(bed.editStep.execute({ editor: author, guideId: guide.id, stepId: step.id, revisionid: step.revisionid, step: { media: { type: 'image', data: [2, 11] } } }))).toEqual(['media.data[1]']);
  });
});

// The test bed's documents 1-9 are the author's, 10-19 another user's; 500 is no document.
describe('documents a guide attaches', () => {
  it("keeps the writer's own documents and featured document with the revision", async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, documents: [3, 1], featured_documentid: 1, objectid: 44 } });
    expect((await bed.stored(guide.id)).state).toMatchObject({ documentIds: [3, 1], featuredDocumentId: 1, introObjectId: 44 });
  });

  it("refuses another user's document or an unknown id, naming each, and writes nothing", async () => {
    const bed = guidesTestBed();
    expect(await violationsOf(bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, documents: [1, 12, 500] } }))).toEqual(['documents[1]', 'documents[2]']);
    expect(await violationsOf(bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, featured_documentid: 12 } }))).toEqual(['featured_documentid']);
    expect(bed.guides.all()).toEqual([]);
  });

  it("lets an Admin attach anyone's document, and the author keep it once attached", async () => {
    const bed = guidesTestBed();
    const guide = await bed.createGuideUseCase.execute({ editor: author, fields: { ...DEFAULT_GUIDE_FIELDS, documents: [3] } });
    const byAdmin = await bed.editGuide.execute({ editor: admin, guideId: guide.id, revisionid: guide.state.revisionid, fields: { documents: [3, 12] } });
    const kept = await bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: byAdmin.state.revisionid, fields: { documents: [12, 3], featured_documentid: 12 } });
    expect([kept.state.documentIds, kept.state.featuredDocumentId]).toEqual([[12, 3], 12]);
    expect(await violationsOf(bed.editGuide.execute({ editor: author, guideId: guide.id, revisionid: kept.state.revisionid, fields: { documents: [12, 3, 13] } }))).toEqual(['documents[2]']);
  });
});
