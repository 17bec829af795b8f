import { bytesOf } from '../model/bytes.js';
import { asciiBytes, FakeVideoProcessor, mediaTestBed } from '../testing/index.js';
import { GetVideo, UploadVideo } from './other-media.use-cases.js';
import { MEDIA_JOBS } from './media-deps.js';
import { enqueueSweep, ResumeStalledMedia, SWEEP_PERIOD_SECONDS } from './video-jobs.use-cases.js';

const mp4 = () => asciiBytes('\u0000\u0000\u0000\u0018ftypmp42' + 'x'.repeat(200));
const owner = { userId: 1, mayEditContent: false, isAdmin: false };

describe('video posters', () => {
  it('reads the metadata and makes the poster an image of the owner with its sizes, once', async () => {
    const bed = mediaTestBed();
    const uploaded = await new UploadVideo(bed.deps).execute({ ownerId: 1, filename: 'fix.mp4', body: bytesOf(mp4()) });
    expect(uploaded.state.posterStatus).toBe('processing');
    expect(bed.jobs.pending.map((j) => j.name)).toEqual([MEDIA_JOBS.poster]);
    const ran = await bed.runJobs();
    expect(ran).toEqual([MEDIA_JOBS.poster, MEDIA_JOBS.renditions]);
    const { video, poster } = await new GetVideo(bed.deps).execute({ viewer: owner, ref: String(uploaded.id) });
    expect(video.state).toMatchObject({ posterStatus: 'ready', durationMs: 10_000, width: 640, height: 360 });
    expect(video.state.encodings[0]).toMatchObject({ width: 640, height: 360, label: '360p' });
    expect(poster!.state).toMatchObject({ ownerId: 1, filename: 'fix-poster.jpg', status: 'ready', width: 640, height: 360 });
    expect(await bed.allowance.storedBytes(1)).toBe(mp4().length + poster!.state.byteSize);
    // Run again (a retry after a crash): nothing more is made.
    await bed.handlers[MEDIA_JOBS.poster]!({ videoId: uploaded.id }, { attempt: 2, finalAttempt: true });
    expect(bed.videos.probes).toBe(1);
    expect(bed.media.images.size).toBe(1);
  });

  it('marks the poster failed when the final attempt cannot decode the video; the video stays', async () => {
    const bed = mediaTestBed();
    bed.videos.fail = true;
    const uploaded = await new UploadVideo(bed.deps).execute({ ownerId: 1, filename: 'bad.mp4', body: bytesOf(mp4()) });
    await expect(bed.runJobs()).rejects.toThrow('cannot decode');
    expect((await bed.media.findVideo({ id: uploaded.id }))!.state).toMatchObject({ posterStatus: 'failed', posterImageId: null, durationMs: 0 });
    expect(bed.store.keys()).toEqual([uploaded.key]);
  });

  it('without a decoder: the video is kept, no job is queued, its poster is unavailable', async () => {
    const bed = mediaTestBed({}, { videos: new FakeVideoProcessor(false) });
    const uploaded = await new UploadVideo(bed.deps).execute({ ownerId: 1, filename: 'fix.mp4', body: bytesOf(mp4()) });
    expect(uploaded.state.posterStatus).toBe('unavailable');
    expect(bed.jobs.pending).toEqual([]);
  });
});

describe('the sweep', () => {
  it('enqueues again the posters and sizes whose jobs were lost, then the next sweep', async () => {
    const bed = mediaTestBed();
    await new UploadVideo(bed.deps).execute({ ownerId: 1, filename: 'fix.mp4', body: bytesOf(mp4()) });
    bed.jobs.take(); // the job is lost (a crash between the commit and the enqueue)
    expect(await new ResumeStalledMedia(bed.deps).execute({ olderThanMinutes: 2 })).toEqual({ images: 0, videos: 0 });
    bed.clock.advance(3 * 60_000);
    expect(await enqueueSweep(bed.deps)).toBe(true);
    const sweep = bed.jobs.pending[0]!;
    expect(sweep.dedupeKey).toMatch(/^sweep:\d+$/);
    await bed.handlers[MEDIA_JOBS.sweep]!({}, { attempt: 1, finalAttempt: true });
    bed.jobs.pending.shift();
    const next = bed.jobs.pending.find((j) => j.name === MEDIA_JOBS.sweep)!;
    expect(next).toMatchObject({ delaySeconds: SWEEP_PERIOD_SECONDS });
    expect(next.dedupeKey).not.toBe(sweep.dedupeKey);
    expect(bed.jobs.pending.filter((j) => j.name === MEDIA_JOBS.poster)).toHaveLength(1);
    bed.jobs.pending.splice(bed.jobs.pending.indexOf(next), 1);
    await bed.runJobs();
    expect([...bed.media.videos.values()][0]!.state.posterStatus).toBe('ready');
    expect([...bed.media.images.values()][0]!.state.status).toBe('ready');
  });
});
