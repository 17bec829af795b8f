import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { envReader, type Env } from '@rc/shared-infra-mikro-orm';
import { DEFAULT_MEDIA_SETTINGS, type MediaSettings, type MediaStore } from '@rc/media-domain';
import { FfmpegVideoProcessor, locateFfmpeg } from './processing/ffmpeg-video-processor.js';
import { LocalMediaStore } from './stores/local-media-store.js';
import type { S3MediaStoreOptions } from './stores/s3-media-store.js';

export type MediaStoreConfig = { readonly kind: 'local'; readonly dir: string } | ({ readonly kind: 's3' } & S3MediaStoreOptions);

export interface MediaConfig {
  readonly store: MediaStoreConfig;
  /**
   * Where clients fetch media files: the base URL file URLs start with (`<this>/igi/<guid>.<size>`,
   * `<this>/media/files/...`) instead of the API's own `PUBLIC_BASE_URL/api/2.0`. A CDN or reverse
   * proxy whose origin is the API's file routes; `null`: the API's own URL.
   */
  readonly publicBaseUrl: string | null;
  /** The video decoder: a path, `'none'` (no decoder), or `null` (found at start: `ffmpeg` on the PATH, else the npm-shipped binary). */
  readonly ffmpeg: string | null;
  readonly settings: MediaSettings;
}

/**
 * The media variables (all optional):
 * - `MEDIA_STORE`: `local` (default: files under `MEDIA_DIR`, default `DATA_DIR/media`) or `s3`;
 * - `MEDIA_S3_BUCKET` (required with s3), `MEDIA_S3_ENDPOINT` (unset: AWS), `MEDIA_S3_REGION`
 *   (default us-east-1), `MEDIA_S3_ACCESS_KEY_ID` + `MEDIA_S3_SECRET_ACCESS_KEY` (together; unset:
 *   the SDK's default credential chain), `MEDIA_S3_FORCE_PATH_STYLE` (default true when an
 *   endpoint is set: MinIO, Ceph RGW), `MEDIA_S3_PREFIX`;
 * - `MEDIA_PUBLIC_BASE_URL`: the base of file URLs in responses (`<this>/igi/<guid>.<size>`,
 *   `<this>/media/files/videos/...`, `<this>/media/files/documents/...`) instead of
 *   `PUBLIC_BASE_URL/api/2.0`: a CDN or proxy in front of the API's file routes (its origin is
 *   `PUBLIC_BASE_URL/api/2.0`); the API serves those routes either way;
 * - `MEDIA_FFMPEG_PATH`: the ffmpeg binary that reads videos (poster frame, duration, size);
 *   unset: `ffmpeg` on the PATH, else the one the `@ffmpeg-installer/ffmpeg` package ships; `none`:
 *   no decoder (videos are kept and served without poster or metadata);
 * - `MEDIA_MAX_UPLOAD_BYTES` (images, default 80 MiB), `MEDIA_MAX_VIDEO_BYTES` (default 512 MiB),
 *   `MEDIA_MAX_DOCUMENT_BYTES` (default 80 MiB), `MEDIA_MAX_PIXELS` (default 100 000 000),
 *   `MEDIA_QUOTA_BYTES` per user (default 5 GiB, 0 = none), `MEDIA_UPLOAD_RATE_LIMIT` uploads per
 *   user and window (default 120, 0 = none), `MEDIA_UPLOAD_RATE_WINDOW_SECONDS` (default 3600).
 * Problems are collected, not thrown, so a start reports them all at once.
 */
export function readMediaConfig(env: Env, dataDir: string, problems: string[]): MediaConfig {
  const env$ = envReader(env, problems);
  const { read, int } = env$;
  /** An http(s) URL without its trailing slashes. */
  const url = (name: string): string | null => env$.url(name, ['http:', 'https:'])?.replace(/\/+$/, '') ?? null;

  const kind = (read('MEDIA_STORE') ?? 'local').toLowerCase();
  const publicBaseUrl = url('MEDIA_PUBLIC_BASE_URL');
  let store: MediaStoreConfig = { kind: 'local', dir: read('MEDIA_DIR') ?? join(dataDir, 'media') };
  if (kind === 's3') {
    const bucket = read('MEDIA_S3_BUCKET');
    if (!bucket) problems.push('MEDIA_S3_BUCKET is required when MEDIA_STORE is s3');
    const endpoint = url('MEDIA_S3_ENDPOINT');
    const accessKeyId = read('MEDIA_S3_ACCESS_KEY_ID');
    const secretAccessKey = read('MEDIA_S3_SECRET_ACCESS_KEY');
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) problems.push('MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY must be set together');
    const pathStyle = (read('MEDIA_S3_FORCE_PATH_STYLE') ?? (endpoint ? 'true' : 'false')).toLowerCase();
    if (!['true', 'false'].includes(pathStyle)) problems.push('MEDIA_S3_FORCE_PATH_STYLE must be true or false');
    store = {
      kind: 's3',
      bucket: bucket ?? '',
      prefix: read('MEDIA_S3_PREFIX') ?? '',
      endpoint,
      region: read('MEDIA_S3_REGION') ?? 'us-east-1',
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
      forcePathStyle: pathStyle === 'true',
    };
  } else if (kind !== 'local') {
    problems.push(`MEDIA_STORE must be local or s3 (got '${kind}')`);
  }

  const ffmpeg = read('MEDIA_FFMPEG_PATH') ?? null;
  if (ffmpeg && ffmpeg !== 'none') {
    try {
      accessSync(ffmpeg, constants.X_OK);
    } catch {
      problems.push(`MEDIA_FFMPEG_PATH must name an executable ffmpeg, or be none (got '${ffmpeg}')`);
    }
  }

  const d = DEFAULT_MEDIA_SETTINGS;
  return {
    store,
    publicBaseUrl,
    ffmpeg,
    settings: {
      maxUploadBytes: int('MEDIA_MAX_UPLOAD_BYTES', d.maxUploadBytes, 1024, 2 ** 40),
      maxVideoBytes: int('MEDIA_MAX_VIDEO_BYTES', d.maxVideoBytes, 1024, 2 ** 40),
      maxDocumentBytes: int('MEDIA_MAX_DOCUMENT_BYTES', d.maxDocumentBytes, 1024, 2 ** 40),
      maxPixels: int('MEDIA_MAX_PIXELS', d.maxPixels, 2500, 1_000_000_000),
      minSide: d.minSide,
      allowance: {
        quotaBytes: int('MEDIA_QUOTA_BYTES', d.allowance.quotaBytes, 0, 2 ** 50),
        uploadsPerWindow: int('MEDIA_UPLOAD_RATE_LIMIT', d.allowance.uploadsPerWindow, 0, 1_000_000),
        windowSeconds: int('MEDIA_UPLOAD_RATE_WINDOW_SECONDS', d.allowance.windowSeconds, 1, 7 * 24 * 3600),
      },
    },
  };
}

/** The store the configuration names (the AWS SDK is loaded only for an S3 store). */
export async function createMediaStore(config: MediaStoreConfig): Promise<MediaStore> {
  if (config.kind === 'local') return new LocalMediaStore({ root: config.dir });
  const { kind: _kind, ...options } = config;
  const { S3MediaStore } = await import('./stores/s3-media-store.js');
  return new S3MediaStore(options);
}

/** The video decoder the configuration names (`none`: none; unset: found on this machine, see `locateFfmpeg`). */
export async function createVideoProcessor(ffmpeg: string | null): Promise<FfmpegVideoProcessor> {
  if (ffmpeg === 'none') return new FfmpegVideoProcessor({ ffmpegPath: null });
  return new FfmpegVideoProcessor({ ffmpegPath: (await locateFfmpeg(ffmpeg)).path });
}
