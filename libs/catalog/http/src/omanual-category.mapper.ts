import { anyUri, guidePath, StreamingXmlWriter, writeImage, XmlWriter, type ImageBody, type OmanualOptions, type XmlOutput } from '@rc/shared-http';

/** A guide of a category as the category body lists it (a GuideSummary, reference §3.4). */
export interface CategoryGuideBody {
  readonly guideid: number;
  readonly title: string;
  readonly subject: string;
  readonly type: string;
  readonly url: string;
  readonly image: ImageBody;
}

type FlagBody = string | { readonly flagid: string; readonly title?: string; readonly text?: string };

/**
 * A part or tool of a category, in any of the shapes the category bodies use: the §3.7 item
 * (`text`, `type`, `quantity`, `notes`, `url`, `thumbnail`), the legacy part `{tag, count, url}`,
 * the §3.10 tool `{title, target_url, image_url}`.
 */
export interface CategoryItemBody {
  readonly text?: unknown;
  readonly title?: unknown;
  readonly tag?: unknown;
  readonly type?: unknown;
  readonly quantity?: unknown;
  readonly count?: unknown;
  readonly notes?: unknown;
  readonly url?: unknown;
  readonly target_url?: unknown;
  readonly thumbnail?: unknown;
  readonly image_url?: unknown;
}

/**
 * The fields of the legacy category body (`GET /categories/{name}`, reference §3.9) that the
 * document shows. Beyond the title, each may be missing (the document then shows it empty).
 */
export interface CategoryBody {
  readonly title: string;
  readonly display_title?: string | null;
  readonly locale?: string | null;
  readonly topic_info?: { readonly name?: string | null; readonly manufacturer?: unknown; readonly introduced?: unknown; readonly discontinued?: unknown } | null;
  readonly image?: ImageBody;
  readonly description?: string | null;
  readonly flags?: readonly FlagBody[] | null;
  /** Closest first. */
  readonly ancestors?: readonly string[] | null;
  readonly children?: readonly string[] | null;
  readonly solutions?: { readonly url?: string | null; readonly count?: number | null } | null;
  readonly parts?: { readonly categories?: readonly CategoryItemBody[] | null } | readonly CategoryItemBody[] | null;
  readonly tools?: readonly CategoryItemBody[] | null;
  /** GuideSummary bodies (the presenter types them loosely). */
  readonly guides?: readonly unknown[] | null;
  readonly contents_raw?: string | null;
  readonly contents_rendered?: string | null;
}

export interface CategoryDocumentOptions extends Pick<OmanualOptions, 'raw'> {
  /**
   * With a StreamingXmlWriter: receives the document as it is written, in pieces (a category may
   * list very many guides); otherwise the whole text comes at the end.
   */
  readonly sink?: (text: string) => Promise<void>;
}

const FLUSH_AT = 64 * 1024;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const uri = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? anyUri(value) : undefined);

const integer = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
};

const partsOf = (parts: CategoryBody['parts']): readonly CategoryItemBody[] => {
  if (!parts) return [];
  return Array.isArray(parts) ? parts : ((parts as { categories?: readonly CategoryItemBody[] | null }).categories ?? []);
};

function writeItem(w: XmlOutput, element: 'part' | 'tool', item: CategoryItemBody): void {
  const name = text(item.text) ?? text(item.title) ?? text(item.tag);
  if (name === undefined) return;
  const quantity = integer(item.quantity) ?? integer(item.count);
  w.leaf(element, null, {
    name,
    quantity: quantity === undefined ? undefined : String(quantity),
    notes: text(item.notes),
    type: text(item.type),
    url: uri(item.url) ?? uri(item.target_url),
    thumbnail: uri(item.thumbnail) ?? uri(item.image_url),
  });
}

function writeGuide(w: XmlOutput, guide: CategoryGuideBody): void {
  w.open('guide', { id: guide.guideid, subject: guide.subject, type: guide.type });
  w.leaf('title', guide.title);
  w.leaf('url', anyUri(guide.url));
  w.leaf('path', guidePath(guide.guideid, guide.title));
  writeImage(w, guide.image);
  w.close();
}

/**
 * Writes a category as an oManual category document (omanual_category.xsd) from the body of
 * `GET /categories/{name}`. `guides` replaces the body's own list when given (the archive lists
 * every guide of the category, read page by page, where the response shows the first ones).
 */
export async function writeCategoryDocument(
  w: XmlOutput,
  category: CategoryBody,
  options: CategoryDocumentOptions,
  guides: Iterable<CategoryGuideBody> | AsyncIterable<CategoryGuideBody> = (category.guides ?? []) as readonly CategoryGuideBody[],
): Promise<void> {
  const info = category.topic_info ?? {};
  w.open('category', { locale: category.locale || 'en' });
  w.leaf('title', category.display_title || category.title);
  w.leaf('category_info', info.name ?? category.title, {
    manufacturer: text(info.manufacturer),
    introduced: integer(info.introduced),
    discontinued: integer(info.discontinued),
  });
  writeImage(w, category.image ?? null);
  w.leaf('description', category.description ?? '');
  w.open('flags');
  for (const flag of category.flags ?? []) {
    if (typeof flag === 'string') w.leaf('flag', null, { id: flag, title: flag });
    else w.leaf('flag', flag.text ?? null, { id: flag.flagid, title: flag.title ?? flag.flagid });
  }
  w.close();
  w.open('ancestors');
  for (const ancestor of category.ancestors ?? []) w.leaf('ancestor', ancestor);
  w.close();
  w.open('children');
  for (const child of category.children ?? []) w.leaf('child', child);
  w.close();
  w.leaf('solutions', null, { count: integer(category.solutions?.count) ?? 0, url: uri(category.solutions?.url) ?? '' });
  w.open('parts');
  for (const part of partsOf(category.parts)) writeItem(w, 'part', part);
  w.close();
  w.open('tools');
  for (const tool of category.tools ?? []) writeItem(w, 'tool', tool);
  w.close();
  w.open('contents', { contents_raw: options.raw ? (category.contents_raw ?? '') : undefined }).html(category.contents_rendered ?? '').close();
  w.open('guides');
  for await (const guide of guides) {
    writeGuide(w, guide);
    if (options.sink && w instanceof StreamingXmlWriter && w.pendingLength >= FLUSH_AT) await options.sink(w.take());
  }
  w.close();
  w.leaf('documents');
  w.close();
}

/** The whole category document as text. */
export async function categoryDocument(category: CategoryBody, options: Pick<OmanualOptions, 'raw' | 'pretty'>): Promise<string> {
  const w = new XmlWriter(options);
  await writeCategoryDocument(w, category, options);
  return w.end();
}
