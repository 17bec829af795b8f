import { fakeImage, mediaTestBed } from '../testing/index.js';
import { ImagesForContent } from './content-images.use-cases.js';

describe('ImagesForContent', () => {
  it('shows content the images shown would answer: once each, purged and unknown ids left out, ids that cannot name an image ignored', async () => {
    const bed = mediaTestBed();
    const made = await bed.upload(1, 'a.jpg', fakeImage('jpeg', 800, 600));
    const waiting = await bed.upload(1, 'b.jpg', fakeImage('jpeg', 800, 600));
    const gone = await bed.upload(1, 'c.jpg', fakeImage('jpeg', 800, 600));
    await bed.runJobs();
    const purged = (await bed.media.findImage({ id: gone.id }))!;
    purged.markPurged(new Date('2026-06-01T10:00:00Z'));
    await bed.media.saveImage(purged);
    // A rotation leaves the image without sizes until its job runs again.
    const turned = (await bed.media.findImage({ id: waiting.id }))!;
    turned.rotate(90);
    await bed.media.saveImage(turned);

    // What reaches the repository: ids that fit PostgreSQL's `integer`, once each.
    const looked: number[][] = [];
    const find = bed.media.findShownImages.bind(bed.media);
    bed.media.findShownImages = (ids) => (looked.push([...ids]), find(ids));
    const images = new ImagesForContent(bed.deps);
    const asked = [made.id, waiting.id, made.id, gone.id, 999_999, 0, -3, 1.5, 2 ** 31];
    const objects = await images.objects(asked);
    const shown = await images.shown(asked);
    expect(objects).toEqual(shown.map((image) => image.shown));
    expect(objects.map((image) => [image.id, image.version, image.sizes.length])).toEqual([
      [made.id, 1, 10],
      [waiting.id, 2, 0],
    ]);
    expect(await images.objects([0, 2 ** 31])).toEqual([]);
    expect(looked).toEqual([[made.id, waiting.id, gone.id, 999_999]]);
  });
});
