import { keptExif, type ExifData } from './exif.js';
import { renditionFormat, OUTPUT_EXTENSIONS, type ImageFormat, type OutputFormat } from './image-format.js';
import { centredCrop, ratioOf, turnRect, type CropRatio, type CropRect, type ImageRatio } from './image-ratio.js';
import { RENDITION_NAMES, renditionDimensions, type Dimensions, type RenditionName } from './image-sizes.js';
import type { ImageId } from './media-ids.js';

/** Quarter turns clockwise a user asked for (reference §2.3: 90, 180 or 270). */
export type Rotation = 0 | 90 | 180 | 270;
export const ROTATION_STEPS = [90, 180, 270] as const;

/** `processing` until every rendition of the current version exists; `failed` once the job gave up. */
export type ImageStatus = 'processing' | 'ready' | 'failed';

export interface RenditionInfo {
  readonly width: number;
  readonly height: number;
  readonly format: OutputFormat;
  readonly bytes: number;
}

/** What the processor read from an upload's header (no pixel decoded). */
export interface ImageHeader {
  readonly format: ImageFormat;
  /** As stored in the file, before EXIF orientation. */
  readonly width: number;
  readonly height: number;
  /** EXIF orientation, 1 (upright) to 8. */
  readonly orientation: number;
  readonly hasAlpha: boolean;
  /** Parsed EXIF tags by name (all of them: the image keeps only the allowed ones). */
  readonly exif: Readonly<Record<string, unknown>>;
}

export interface ImageState {
  readonly id: ImageId;
  readonly guid: string;
  readonly ownerId: number;
  /** The image this one was copied from (reference: `srcid`). */
  readonly srcId: ImageId | null;
  readonly filename: string;
  readonly format: ImageFormat;
  readonly hasAlpha: boolean;
  /** Size of the uploaded file, the bytes the owner's quota counts. */
  readonly byteSize: number;
  readonly sourceWidth: number;
  readonly sourceHeight: number;
  readonly orientation: number;
  /** A crop of the upright image, asked for at upload (`cropToRatio`). */
  readonly crop: CropRect | null;
  readonly rotation: Rotation;
  /** What the image shows: upright, cropped, rotated. */
  readonly width: number;
  readonly height: number;
  /** Bumped by each rotation: renditions belong to one version, so a stale one is never served as current. */
  readonly version: number;
  readonly exif: ExifData;
  readonly renditions: Readonly<Partial<Record<RenditionName, RenditionInfo>>>;
  readonly status: ImageStatus;
  readonly createdAt: Date;
  /** Removed from its owner's library; still served while content uses it. */
  readonly deletedAt: Date | null;
  /** Its files are gone (deleted and used by no content): it no longer exists for anyone. */
  readonly purgedAt: Date | null;
}

/**
 * What content shows of an image (its Image object): the parts of its file names and the sizes made
 * of its current version, whichever are done.
 */
export interface ShownImage {
  readonly id: ImageId;
  readonly guid: string;
  readonly version: number;
  /** In the size table's order (RENDITION_NAMES). */
  readonly sizes: readonly RenditionName[];
}

export interface NewUpload {
  readonly id: ImageId;
  readonly guid: string;
  readonly ownerId: number;
  readonly filename: string;
  readonly header: ImageHeader;
  readonly byteSize: number;
  readonly cropToRatio: CropRatio | null;
  readonly now: Date;
}

/** Whether an EXIF orientation turns the image a quarter (5 to 8 swap width and height). */
export function swapsSides(orientation: number): boolean {
  return orientation >= 5 && orientation <= 8;
}

/** The size of the upright image an upload shows. */
export function uprightSize(header: Pick<ImageHeader, 'width' | 'height' | 'orientation'>): Dimensions {
  return swapsSides(header.orientation) ? { width: header.height, height: header.width } : { width: header.width, height: header.height };
}

/**
 * An image in a user's library. Its upload is kept as it came (private: it may carry GPS
 * positions) and every served file is a rendition made from it by a background job: upright
 * (EXIF orientation applied), cropped and rotated as asked, and re-encoded without metadata.
 */
export class Image {
  private constructor(private current: ImageState) {}

  static restore(state: ImageState): Image {
    return new Image({ ...state, renditions: { ...state.renditions } });
  }

  static upload(input: NewUpload): Image {
    const upright = uprightSize(input.header);
    const crop = input.cropToRatio ? centredCrop(upright.width, upright.height, input.cropToRatio) : null;
    const shown = crop ? { width: crop.width, height: crop.height } : upright;
    return new Image({
      id: input.id,
      guid: input.guid,
      ownerId: input.ownerId,
      srcId: null,
      filename: input.filename,
      format: input.header.format,
      hasAlpha: input.header.hasAlpha,
      byteSize: input.byteSize,
      sourceWidth: input.header.width,
      sourceHeight: input.header.height,
      orientation: input.header.orientation,
      crop,
      rotation: 0,
      width: shown.width,
      height: shown.height,
      version: 1,
      exif: keptExif(input.header.exif),
      renditions: {},
      status: 'processing',
      createdAt: input.now,
      deletedAt: null,
      purgedAt: null,
    });
  }

  get id(): ImageId {
    return this.current.id;
  }

  get state(): ImageState {
    return this.current;
  }

  get ratio(): ImageRatio {
    return ratioOf(this.current.width, this.current.height);
  }

  get isDeleted(): boolean {
    return this.current.deletedAt !== null;
  }

  get isPurged(): boolean {
    return this.current.purgedAt !== null;
  }

  /** What content shows of it (see ShownImage). */
  get shown(): ShownImage {
    const { id, guid, version, renditions } = this.current;
    return { id, guid, version, sizes: RENDITION_NAMES.filter((name) => renditions[name]) };
  }

  /** The crop in the coordinates of the upright image turned by the user's rotation (what a render cuts). */
  get turnedCrop(): CropRect | null {
    const { crop, rotation } = this.current;
    if (!crop) return null;
    const upright = uprightSize({ width: this.current.sourceWidth, height: this.current.sourceHeight, orientation: this.current.orientation });
    return turnRect(crop, upright.width, upright.height, rotation);
  }

  /** Where the upload is kept (never served). */
  get uploadKey(): string {
    return `images/${this.current.guid}/upload`;
  }

  /** Where a rendition of the current version is (or will be) stored. */
  renditionKey(name: RenditionName, version = this.current.version): string {
    return `images/${this.current.guid}/v${version}/${name}.${OUTPUT_EXTENSIONS[this.renditionFormat(name)]}`;
  }

  renditionFormat(name: RenditionName): OutputFormat {
    return renditionFormat(this.current.format, this.current.hasAlpha, name === 'original');
  }

  /** The exact size a rendition of the current version has. */
  renditionSize(name: RenditionName): Dimensions {
    return renditionDimensions(this.current.width, this.current.height, name);
  }

  /** Renditions the current version still lacks, the full-resolution original first (largest first). */
  get missingRenditions(): RenditionName[] {
    return [...RENDITION_NAMES].reverse().filter((name) => !this.current.renditions[name]);
  }

  /** Keys of every stored file of the current version (upload and renditions made). */
  get storedKeys(): string[] {
    return [this.uploadKey, ...RENDITION_NAMES.filter((n) => this.current.renditions[n]).map((n) => this.renditionKey(n))];
  }

  /**
   * Records a rendition made for `version`. A rendition of a version the image has left (it was
   * rotated meanwhile) is refused: `false`, and the caller deletes the file it made.
   */
  recordRendition(version: number, name: RenditionName, info: RenditionInfo): boolean {
    if (version !== this.current.version || this.isPurged) return false;
    const renditions = { ...this.current.renditions, [name]: info };
    const complete = RENDITION_NAMES.every((n) => renditions[n]);
    this.current = { ...this.current, renditions, status: complete ? 'ready' : this.current.status };
    return true;
  }

  /** The rendition job gave up (a file that decodes badly): sizes made so far stay. */
  markFailed(): void {
    this.current = { ...this.current, status: 'failed' };
  }

  /**
   * Turns the image clockwise by a quarter, a half or three quarters: a new version, whose
   * renditions are all to be made again. Answers the keys of the previous version's renditions,
   * which the caller deletes once the new ones exist.
   */
  rotate(degrees: (typeof ROTATION_STEPS)[number]): string[] {
    const stale = RENDITION_NAMES.filter((n) => this.current.renditions[n]).map((n) => this.renditionKey(n));
    const quarter = degrees !== 180;
    this.current = {
      ...this.current,
      rotation: ((this.current.rotation + degrees) % 360) as Rotation,
      width: quarter ? this.current.height : this.current.width,
      height: quarter ? this.current.width : this.current.height,
      version: this.current.version + 1,
      renditions: {},
      status: 'processing',
    };
    return stale;
  }

  /** A copy in another user's library (reference: POST /user/media/images/{image}); its files are copied by the caller. */
  copyFor(id: ImageId, guid: string, ownerId: number, now: Date): Image {
    return new Image({ ...this.current, id, guid, ownerId, srcId: this.current.id, renditions: { ...this.current.renditions }, createdAt: now, deletedAt: null, purgedAt: null });
  }

  /** Out of its owner's library. Content using it keeps showing it. */
  removeFromLibrary(now: Date): void {
    if (!this.isDeleted) this.current = { ...this.current, deletedAt: now };
  }

  /** Its files were deleted: it is gone for everyone. */
  markPurged(now: Date): void {
    this.current = { ...this.current, purgedAt: now, renditions: {} };
  }
}
