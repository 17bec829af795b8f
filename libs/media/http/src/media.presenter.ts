import { IMAGE_SIZE_NAMES, type Embed, type Image, type MediaDocument, type RotateJob, type ShownImage, type VideoView } from '@rc/media-domain';

/**
 * Where media files are served: `<fileBase>/igi/<stem>.<size>`, `<fileBase>/media/files/videos/…`
 * and `<fileBase>/media/files/documents/…`, `fileBase` being the API's `PUBLIC_BASE_URL/api/2.0` or
 * `MEDIA_PUBLIC_BASE_URL` (a CDN or proxy whose origin is the API's file routes).
 */
export interface MediaUrls {
  readonly fileBase: string;
}

/**
 * The stem of an image's file URLs: its GUID, and after a rotation its version (`<guid>-<version>`),
 * so a turned image never reuses a URL that caches keep for a year. Clients append `.<size>`.
 */
export function imageStem({ guid, version }: Pick<ShownImage, 'guid' | 'version'>): string {
  return version === 1 ? guid : `${guid}-${version}`;
}

/** Reads a file name of the `/igi` route: `<guid>[-<version>].<size>` (`full` = the original). */
export function parseImageFile(file: string): { guid: string; version: number; size: string } | null {
  const match = /^([A-Za-z][A-Za-z0-9]{15})(?:-([1-9][0-9]{0,8}))?\.([A-Za-z0-9]+)$/.exec(file);
  if (!match) return null;
  return { guid: match[1]!, version: match[2] ? Number(match[2]) : 1, size: match[3]! };
}

/** The Image object (reference §3.1): the sizes made so far, and `original` always. */
export function presentImageObject(image: Image | ShownImage, urls: MediaUrls): Record<string, string | number> {
  const shown = 'state' in image ? image.shown : image;
  const stem = `${urls.fileBase}/igi/${imageStem(shown)}`;
  const out: Record<string, string | number> = { id: shown.id, guid: shown.guid };
  for (const size of IMAGE_SIZE_NAMES) if (shown.sizes.includes(size)) out[size] = `${stem}.${size}`;
  out['original'] = `${stem}.full`;
  return out;
}

/** ImageWithMetadata (media endpoints, upload, copy). */
export function presentImageWithMetadata(image: Image, urls: MediaUrls) {
  const { srcId, width, height, exif } = image.state;
  return {
    image: presentImageObject(image, urls),
    srcid: srcId,
    width,
    height,
    ratio: image.ratio,
    markup: null,
    exif: Object.keys(exif).length ? exif : [],
  };
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The media-manager item of a rotate job (reference §3.1, flat). */
export function presentMediaItem(image: Image, urls: MediaUrls) {
  const object = presentImageObject(image, urls);
  return {
    type: 'GuideImage',
    guid: image.state.guid,
    imageid: image.id,
    objectid: image.id,
    documentid: null,
    srcid: image.state.srcId,
    ratio: image.ratio,
    mini: object['mini'] ?? null,
    thumbnail: object['thumbnail'] ?? null,
    standard: object['standard'] ?? null,
    medium: object['medium'] ?? null,
    original: object['original'],
    width: image.state.width,
    height: image.state.height,
    filename: image.state.filename,
    date: seconds(image.state.createdAt),
  };
}

export function presentRotateJob(job: RotateJob, image: Image | null, urls: MediaUrls) {
  return { status: job.state.status, item: image ? presentMediaItem(image, urls) : null };
}

/**
 * Video (reference §3.13): its one encoding (the upload; transcoding is out of scope), `image` its
 * poster as ImageWithMetadata (`null` until the background job made it, or without a decoder).
 */
export function presentVideo({ video, poster }: VideoView, urls: MediaUrls) {
  const s = video.state;
  return {
    videoid: s.id,
    objectid: s.id,
    guid: s.guid,
    srcid: s.srcId,
    filename: s.filename,
    duration: s.durationMs,
    width: s.width,
    height: s.height,
    image: poster ? presentImageWithMetadata(poster, urls) : null,
    encodings: s.encodings.map((e) => ({
      column: e.column,
      label: e.label,
      width: e.width,
      height: e.height,
      codecs: e.codecs,
      mime: e.mime,
      format: e.format,
      url: `${urls.fileBase}/media/files/videos/${s.guid}.${e.format}`,
      always_generate: e.alwaysGenerate,
    })),
  };
}

/** Embed (media manager, reference §3.13); provider HTML is never kept, so `html` is null. */
export function presentEmbed(embed: Embed) {
  const s = embed.state;
  return {
    embedid: s.id,
    objectid: s.id,
    imageid: null,
    type: 'GuideEmbedObject',
    mini: s.thumbnailUrl,
    thumbnail: s.thumbnailUrl,
    standard: s.thumbnailUrl,
    medium: s.thumbnailUrl,
    view_url: s.url,
    width: s.width,
    height: s.height,
    html: null,
    filename: s.title,
    provider: s.providerName,
    date: seconds(s.createdAt),
  };
}

/** Document (reference §3.13). */
export function presentDocument(document: MediaDocument, urls: MediaUrls, baseUrl: string) {
  const s = document.state;
  const file = encodeURIComponent(s.filename);
  return {
    documentid: s.id,
    guid: s.guid,
    filename: s.filename,
    title: s.title,
    size: s.byteSize,
    thumbnailid: s.thumbnailImageId,
    imageid: s.thumbnailImageId,
    document_type: 'application/pdf',
    document_extension: 'pdf',
    document_group: 'pdf',
    standard: null,
    thumbnail: null,
    mini: null,
    edit_url: `${baseUrl}/Document/Edit/${s.guid}`,
    view_url: `${baseUrl}/Document/${s.guid}/${file}`,
    download_url: `${urls.fileBase}/media/files/documents/${s.guid}.pdf`,
    date: seconds(s.createdAt),
    summary: null,
    pages: s.pages,
    type: 'Document',
  };
}
