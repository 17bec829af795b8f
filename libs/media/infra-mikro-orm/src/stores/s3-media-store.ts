import { Readable } from 'node:stream';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { clampRange, isStoreKey, MediaStore, type ByteRange, type ByteStream, type StoredBytes, type StoredObject } from '@rc/media-domain';

export interface S3MediaStoreOptions {
  readonly bucket: string;
  /** Prepended to every key (e.g. `media/`), so one bucket can hold more than this store. */
  readonly prefix?: string;
  /** Another S3 service than AWS: MinIO, Ceph RGW, Cloudflare R2, Garage... */
  readonly endpoint?: string | null;
  readonly region?: string;
  /** Absent: the SDK's default chain (environment, profile, instance role). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
  /** `bucket` in the path rather than the host name: MinIO and most self-hosted services need it. */
  readonly forcePathStyle?: boolean;
  /** Bytes per multipart part (at least 5 MiB, S3's minimum). */
  readonly partSize?: number;
}

/**
 * Objects in an S3 bucket, through the AWS SDK v3. Uploads stream as multipart uploads (a part in
 * memory at a time, two in flight); an upload that fails is aborted, so no part stays billed, and
 * the object appears only once complete. Checksums are computed only where S3 requires them, so
 * services that do not know the SDK's newer checksum headers work too.
 */
export class S3MediaStore extends MediaStore {
  readonly client: S3Client;
  private readonly prefix: string;

  constructor(private readonly options: S3MediaStoreOptions) {
    super();
    this.prefix = options.prefix ? options.prefix.replace(/^\/+|\/+$/g, '') + '/' : '';
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: { ...options.credentials } } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: ByteStream, contentType: string): Promise<StoredObject> {
    let size = 0;
    let bodyError: unknown = null;
    const counted = Readable.from(
      (async function* () {
        try {
          for await (const chunk of body) {
            size += chunk.length;
            yield chunk;
          }
        } catch (error) {
          bodyError = error;
          throw error;
        }
      })(),
      { objectMode: false },
    );
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: this.objectKey(key), Body: counted, ContentType: contentType },
      partSize: Math.max(this.options.partSize ?? 8 * 1024 * 1024, 5 * 1024 * 1024),
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      counted.destroy();
      await upload.abort().catch(() => undefined);
      // The SDK reports a body that failed as a failed request: answer the body's own error.
      throw bodyError ?? error;
    }
    return { key, size, contentType, modifiedAt: new Date() };
  }

  async get(key: string, range?: ByteRange): Promise<StoredBytes | null> {
    const head = await this.head(key);
    if (!head) return null;
    const span = clampRange(range, head.size);
    if (head.size === 0) return { object: head, range: span, body: Readable.from([]) };
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key), ...(range ? { Range: `bytes=${span.start}-${span.end}` } : {}) }),
      );
      return { object: head, range: span, body: out.Body as Readable };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      return { key, size: out.ContentLength ?? 0, contentType: out.ContentType ?? 'application/octet-stream', modifiedAt: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  async copy(fromKey: string, toKey: string): Promise<boolean> {
    const source = `${this.options.bucket}/${this.objectKey(fromKey)}`.split('/').map(encodeURIComponent).join('/');
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(toKey), CopySource: source }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Stops the client's sockets (tests, shutdown). */
  close(): void {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    if (!isStoreKey(key)) throw new Error(`Invalid store key: ${key}`);
    return this.prefix + key;
  }
}

function isMissing(error: unknown): boolean {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound';
  return (error as { name?: string } | null)?.name === 'NoSuchKey';
}
