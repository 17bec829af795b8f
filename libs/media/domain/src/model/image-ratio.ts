/** The aspect ratios the media manager filters on and crops to (reference §2.3). */
export const IMAGE_RATIOS = ['ONE_ONE', 'FOUR_THREE', 'VARIABLE'] as const;
export type ImageRatio = (typeof IMAGE_RATIOS)[number];

/** What an upload may be cropped to. */
export const CROP_RATIOS = ['ONE_ONE', 'FOUR_THREE'] as const;
export type CropRatio = (typeof CROP_RATIOS)[number];

/** A list filter: one ratio, or all. */
export type RatioFilter = ImageRatio | 'ALL';

const TOLERANCE = 0.01;

/**
 * The ratio an image of this size shows: ONE_ONE for a square, FOUR_THREE for 4:3 landscape
 * (the original service's step-image shape), VARIABLE otherwise. Up to 1% off still counts, so
 * that sizes rounded to whole pixels (e.g. 1001×750) keep their ratio.
 */
export function ratioOf(width: number, height: number): ImageRatio {
  const r = width / height;
  if (Math.abs(r - 1) <= TOLERANCE) return 'ONE_ONE';
  if (Math.abs(r / (4 / 3) - 1) <= TOLERANCE) return 'FOUR_THREE';
  return 'VARIABLE';
}

/** A rectangle in the upright image (after EXIF orientation). */
export interface CropRect {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** The largest centred rectangle of the ratio inside a width × height image. */
export function centredCrop(width: number, height: number, ratio: CropRatio): CropRect {
  const [rw, rh] = ratio === 'ONE_ONE' ? [1, 1] : [4, 3];
  let w = width;
  let h = Math.round((width * rh) / rw);
  if (h > height) {
    h = height;
    w = Math.round((height * rw) / rh);
  }
  w = Math.min(w, width);
  h = Math.min(h, height);
  return { left: Math.floor((width - w) / 2), top: Math.floor((height - h) / 2), width: w, height: h };
}

/** Where a rectangle of a width × height image lies once the image is turned clockwise by `degrees`. */
export function turnRect(rect: CropRect, width: number, height: number, degrees: 0 | 90 | 180 | 270): CropRect {
  switch (degrees) {
    case 0:
      return rect;
    case 90:
      return { left: height - rect.top - rect.height, top: rect.left, width: rect.height, height: rect.width };
    case 180:
      return { left: width - rect.left - rect.width, top: height - rect.top - rect.height, width: rect.width, height: rect.height };
    case 270:
      return { left: rect.top, top: width - rect.left - rect.width, width: rect.height, height: rect.width };
  }
}
