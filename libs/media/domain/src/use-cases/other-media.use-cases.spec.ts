import { ANONYMOUS_VIEWER } from '../model/media-viewer.js';
import { bytesOf } from '../model/bytes.js';
import type { VideoId } from '../model/media-ids.js';
import { asciiBytes, fakeImage, mediaTestBed, user } from '../testing/index.js';
import { InvalidMediaError, InvalidMediaFieldsError, MediaNotViewableError, UnsupportedImageTypeError } from '../media.errors.js';
import { OEmbedResolver } from '../ports/oembed-resolver.js';
import type { OEmbedFields } from '../model/embed.js';
import { AddEmbed, GetDocument, GetVideo, ListEmbeds, ListVideos, SetVideoPoster, UploadDocument, UploadVideo } from './other-media.use-cases.js';

const videoKey = (guid: string) => `videos/${guid}/original.mp4`;
const mp4 = () => asciiBytes('\u0000\u0000\u0000\u0018ftypmp42' + 'x'.repeat(200));

class FixedOEmbed extends OEmbedResolver {
  constructor(private readonly answer: OEmbedFields | null) {
    super();
  }
  async resolve(): Promise<OEmbedFields | null> {
    return this.answer;
  }
}

describe('videos', () => {
  it('keeps an MP4 as its one encoding, lists it, sets a poster, and shows it like images', async () => {
    const bed = mediaTestBed();
    const video = await new UploadVideo(bed.deps).execute({ ownerId: 1, filename: 'fix.mp4', body: bytesOf(mp4()) });
    expect(video.state.encodings).toEqual([expect.objectContaining({ column: 'MP4_ORIGINAL', mime: 'video/mp4', bytes: mp4().length, key: videoKey(video.state.guid) })]);
    expect(bed.store.keys()).toEqual([videoKey(video.state.guid)]);
    const poster = await bed.upload(1, 'p.jpg', fakeImage('jpeg', 800, 600));
    await new SetVideoPoster(bed.deps).execute({ ownerId: 1, videoId: video.id, imageId: poster.id });
    expect((await new ListVideos(bed.deps).execute({ ownerId: 1, order: 'ASC', page: { limit: 20, offset: 0 } }))[0]!.poster!.id).toBe(poster.id);
    await expect(new GetVideo(bed.deps).execute({ viewer: user(2), ref: String(video.id) })).rejects.toBeInstanceOf(MediaNotViewableError);
    bed.usage.use('video', video.id);
    await expect(new GetVideo(bed.deps).execute({ viewer: ANONYMOUS_VIEWER, ref: video.state.guid })).resolves.toBeDefined();
    await expect(new SetVideoPoster(bed.deps).execute({ ownerId: 2, videoId: video.id as VideoId, imageId: null })).rejects.toThrow('Video not found');
  });

  it('refuses bytes that are not the video the name says', async () => {
    const bed = mediaTestBed();
    await expect(new UploadVideo(bed.deps).execute({ ownerId: 1, filename: 'x.mp4', body: bytesOf(asciiBytes('hello')) })).rejects.toBeInstanceOf(UnsupportedImageTypeError);
    await expect(new UploadVideo(bed.deps).execute({ ownerId: 1, filename: 'x.webm', body: bytesOf(mp4()) })).rejects.toBeInstanceOf(InvalidMediaError);
    await expect(new UploadVideo(bed.deps).execute({ ownerId: 1, filename: 'x.avi', body: bytesOf(mp4()) })).rejects.toBeInstanceOf(UnsupportedImageTypeError);
    expect(bed.store.keys()).toEqual([]);
  });
});

describe('documents', () => {
  it('keeps PDFs only, visible to the owner and through content', async () => {
    const bed = mediaTestBed();
    const doc = await new UploadDocument(bed.deps).execute({ ownerId: 1, filename: 'manual.pdf', body: bytesOf(asciiBytes('%PDF-1.7\n...')) });
    expect(doc.state).toMatchObject({ title: 'manual', filename: 'manual.pdf', byteSize: 12 });
    await expect(new GetDocument(bed.deps).execute({ viewer: user(1), ref: doc.state.guid })).resolves.toBeDefined();
    await expect(new GetDocument(bed.deps).execute({ viewer: ANONYMOUS_VIEWER, ref: String(doc.id) })).rejects.toBeInstanceOf(MediaNotViewableError);
    await expect(new UploadDocument(bed.deps).execute({ ownerId: 1, filename: 'x.pdf', body: bytesOf(asciiBytes('<html>')) })).rejects.toBeInstanceOf(UnsupportedImageTypeError);
  });
});

describe('embeds', () => {
  it('keeps the provider’s oEmbed fields, never its HTML', async () => {
    const bed = mediaTestBed();
    const oembed = new FixedOEmbed({ type: 'video', title: 'Battery swap', provider_name: 'Tube', provider_url: 'https://tube.example', width: 640, height: 360, html: '<iframe src=x>' } as OEmbedFields);
    const embed = await new AddEmbed({ ...bed.deps, oembed }).execute({ ownerId: 1, url: 'https://tube.example/v/1' });
    expect(embed.state).toMatchObject({ url: 'https://tube.example/v/1', type: 'video', title: 'Battery swap', providerName: 'Tube', width: 640 });
    expect(JSON.stringify(embed.state)).not.toContain('iframe');
    expect(await new ListEmbeds(bed.deps).execute({ ownerId: 1, page: { limit: 20, offset: 0 } })).toHaveLength(1);
  });

  it('refuses markup and bad URLs in fields', async () => {
    const bed = mediaTestBed();
    const add = new AddEmbed({ ...bed.deps, oembed: new FixedOEmbed(null) });
    await expect(add.execute({ ownerId: 1, url: 'javascript:alert(1)' })).rejects.toBeInstanceOf(InvalidMediaFieldsError);
    await expect(add.execute({ ownerId: 1, url: 'https://a.example/x', fields: { title: '<b>hi</b>' } })).rejects.toMatchObject({ violations: [{ field: 'title' }] });
  });
});
