/**
 * The sizes of an Image object (reference §3.1 and §8), smallest first, and how each is made.
 *
 * The reference gives the fixed sizes exactly (`140x105`, `200x150`, `440x330`: the name is the
 * size) and the named ones approximately (mini ~56 px, thumbnail ~96 px, standard ~300 px, medium
 * ~592 px, large ~800 px, huge ~1600 px). Decisions, one per size:
 * - a fixed size is a **cover crop**: scaled until it fills the box, centred, cut to exactly the
 *   box (enlarged when the image is smaller: the name promises the size);
 * - a named size is **fitted within** a 4:3 box whose width is the reference's number (mini 56×42,
 *   thumbnail 96×72, standard 300×225, medium 592×444, large 800×600, huge 1600×1200: the
 *   original service's boxes, all 4:3 like its step images), keeping the image's own ratio and
 *   never enlarged, so a 4:3 image gets exactly the box and a small image stays as it is.
 *   (The 41×30 mini some older clients assumed is not what the reference says: ~56 px wins.)
 * - `original` is the full image, upright, cropped and rotated as asked, without metadata.
 */
export const IMAGE_SIZE_NAMES = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge'] as const;
export type ImageSizeName = (typeof IMAGE_SIZE_NAMES)[number];

/** Every rendition of an image: the sizes and the full-resolution `original`. */
export const RENDITION_NAMES = [...IMAGE_SIZE_NAMES, 'original'] as const;
export type RenditionName = (typeof RENDITION_NAMES)[number];

export type SizeMode = 'fit' | 'cover';

export interface SizeSpec {
  readonly name: ImageSizeName;
  readonly width: number;
  readonly height: number;
  readonly mode: SizeMode;
}

export const IMAGE_SIZES: Readonly<Record<ImageSizeName, SizeSpec>> = {
  mini: { name: 'mini', width: 56, height: 42, mode: 'fit' },
  thumbnail: { name: 'thumbnail', width: 96, height: 72, mode: 'fit' },
  '140x105': { name: '140x105', width: 140, height: 105, mode: 'cover' },
  '200x150': { name: '200x150', width: 200, height: 150, mode: 'cover' },
  standard: { name: 'standard', width: 300, height: 225, mode: 'fit' },
  '440x330': { name: '440x330', width: 440, height: 330, mode: 'cover' },
  medium: { name: 'medium', width: 592, height: 444, mode: 'fit' },
  large: { name: 'large', width: 800, height: 600, mode: 'fit' },
  huge: { name: 'huge', width: 1600, height: 1200, mode: 'fit' },
};

export function isRenditionName(value: string): value is RenditionName {
  return (RENDITION_NAMES as readonly string[]).includes(value);
}

export interface Dimensions {
  readonly width: number;
  readonly height: number;
}

/**
 * The exact pixel size of a rendition of an image that shows `width` × `height`. The processor
 * makes exactly this size, so the stored dimensions are known before any pixel is decoded.
 */
export function renditionDimensions(width: number, height: number, name: RenditionName): Dimensions {
  if (name === 'original') return { width, height };
  const spec = IMAGE_SIZES[name];
  if (spec.mode === 'cover') return { width: spec.width, height: spec.height };
  const scale = Math.min(1, spec.width / width, spec.height / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
