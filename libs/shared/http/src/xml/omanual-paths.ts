/**
 * Where documents live inside an oManual package (the offline archive), after the package layout
 * of the oManual documentation: guide folders and category documents side by side at the root.
 *
 *   manifest.xml                           the index of the package
 *   <Category-Title>-<wikiid>.xml          one category document per category
 *   <Guide-Title>-<guideid>/guide.xml      one folder per guide
 *
 * Paths in documents are relative to the document: a category names its guides
 * `<Guide-Title>-<id>/guide.xml`, a guide names its prerequisites `../<Guide-Title>-<id>/guide.xml`.
 * The API's XML responses use the same paths, so they resolve inside the archive.
 */

const MAX_SLUG = 80;

/** A file-name-safe form of a title: ASCII letters and digits, words joined by `-`. */
export function slug(title: string, fallback: string): string {
  const ascii = title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const words = ascii.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return words.slice(0, MAX_SLUG).replace(/-+$/, '') || fallback;
}

/** The folder of a guide: title and id make it unique. */
export function guideFolder(guideid: number, title: string): string {
  return `${slug(title, 'guide')}-${guideid}`;
}

/** A guide's document, relative to the package root (as a category or the manifest names it). */
export function guidePath(guideid: number, title: string): string {
  return `${guideFolder(guideid, title)}/guide.xml`;
}

/** A guide's document as another guide names it (from inside its own folder). */
export function prerequisitePath(guideid: number, title: string): string {
  return `../${guidePath(guideid, title)}`;
}

/** A category's document, at the package root. */
export function categoryPath(wikiid: number, title: string): string {
  return `${slug(title, 'category')}-${wikiid}.xml`;
}

export const MANIFEST_PATH = 'manifest.xml';
