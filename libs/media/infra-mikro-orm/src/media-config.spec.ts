import { DEFAULT_MEDIA_SETTINGS } from '@rc/media-domain';
import { createMediaStore, readMediaConfig } from './media-config.js';
import { LocalMediaStore } from './stores/local-media-store.js';
import { S3MediaStore } from './stores/s3-media-store.js';

describe('readMediaConfig', () => {
  it('defaults to files under DATA_DIR/media and the reference limits', async () => {
    const problems: string[] = [];
    const config = readMediaConfig({}, '.data', problems);
    expect(problems).toEqual([]);
    expect(config).toEqual({ store: { kind: 'local', dir: '.data/media' }, publicBaseUrl: null, ffmpeg: null, settings: DEFAULT_MEDIA_SETTINGS });
    expect(await createMediaStore(config.store)).toBeInstanceOf(LocalMediaStore);
  });

  it('reads an S3-compatible service', async () => {
    const problems: string[] = [];
    const config = readMediaConfig(
      {
        MEDIA_STORE: 's3',
        MEDIA_S3_BUCKET: 'media',
        MEDIA_S3_ENDPOINT: 'http://minio:9000/',
        MEDIA_S3_ACCESS_KEY_ID: 'k',
        MEDIA_S3_SECRET_ACCESS_KEY: 's',
        MEDIA_PUBLIC_BASE_URL: 'https://cdn.example/media/',
        MEDIA_MAX_UPLOAD_BYTES: '1048576',
        MEDIA_MAX_VIDEO_BYTES: '2097152',
        MEDIA_MAX_DOCUMENT_BYTES: '4096',
        MEDIA_FFMPEG_PATH: 'none',
        MEDIA_QUOTA_BYTES: '0',
        MEDIA_UPLOAD_RATE_LIMIT: '10',
      },
      '/data',
      problems,
    );
    expect(problems).toEqual([]);
    expect(config.store).toEqual({
      kind: 's3',
      bucket: 'media',
      prefix: '',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
      forcePathStyle: true,
    });
    expect(config.publicBaseUrl).toBe('https://cdn.example/media');
    expect(config.settings).toMatchObject({ maxUploadBytes: 1048576, maxVideoBytes: 2097152, maxDocumentBytes: 4096, allowance: { quotaBytes: 0, uploadsPerWindow: 10, windowSeconds: 3600 } });
    const store = await createMediaStore(config.store);
    expect(store).toBeInstanceOf(S3MediaStore);
    (store as S3MediaStore).close();
  });

  it('collects every problem', () => {
    const problems: string[] = [];
    readMediaConfig({ MEDIA_STORE: 's3', MEDIA_S3_ACCESS_KEY_ID: 'k', MEDIA_MAX_PIXELS: 'lots', MEDIA_MAX_VIDEO_BYTES: '10', MEDIA_PUBLIC_BASE_URL: 'ftp://x', MEDIA_FFMPEG_PATH: '/nowhere/ffmpeg' }, '.data', problems);
    expect(problems).toEqual([
      'MEDIA_PUBLIC_BASE_URL must be a URL starting with http:// or https://',
      'MEDIA_S3_BUCKET is required when MEDIA_STORE is s3',
      'MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY must be set together',
      "MEDIA_FFMPEG_PATH must name an executable ffmpeg, or be none (got '/nowhere/ffmpeg')",
      "MEDIA_MAX_VIDEO_BYTES must be an integer from 1024 to 1099511627776 (got '10')",
      "MEDIA_MAX_PIXELS must be an integer from 2500 to 1000000000 (got 'lots')",
    ]);
    readMediaConfig({ MEDIA_STORE: 'ftp' }, '.data', (problems.length = 0, problems));
    expect(problems).toEqual(["MEDIA_STORE must be local or s3 (got 'ftp')"]);
  });
});
