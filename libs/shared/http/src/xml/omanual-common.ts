import type { XmlOutput, XmlWriterOptions } from './xml-writer.js';

// What the oManual guide and category documents share (the guides' and the catalog's mappers).

/** An Image object as the JSON bodies carry it (reference §3.1), or `null`. */
export type ImageBody = { readonly [size: string]: string | number | undefined } | null;

export interface OmanualOptions extends XmlWriterOptions {
  /**
   * Add the wiki markup beside the rendered text as `*_raw` attributes (`introduction_raw`,
   * `conclusion_raw`, `text_raw`), as the original API's XML does. The schema does not know them:
   * the API's responses carry them, the archive's documents do not.
   */
  readonly raw: boolean;
}

const IMAGE_SIZES = ['mini', 'thumbnail', 'standard', 'medium', 'large'] as const;

/** `<image mini=… thumbnail=… standard=… medium=… large=…>original</image>`, or an empty `<image/>`. */
export function writeImage(w: XmlOutput, image: ImageBody, extra: Record<string, number> = {}): void {
  if (!image) {
    w.leaf('image', null, extra);
    return;
  }
  const attributes: Record<string, string | number> = { ...extra };
  for (const size of IMAGE_SIZES) if (typeof image[size] === 'string') attributes[size] = image[size];
  w.leaf('image', typeof image['original'] === 'string' ? image['original'] : '', attributes);
}
