import { guidePath, prerequisitePath, anyUri, isoDate, writeImage, XmlWriter, type ImageBody, type OmanualOptions, type XmlOutput } from '@rc/shared-http';

export interface ItemBody {
  readonly text: string;
  readonly type: string;
  readonly quantity: number;
  readonly notes: string | null;
  readonly url: string | null;
  readonly thumbnail: string | null;
}

export interface LineBody {
  readonly text_raw: string;
  readonly text_rendered: string;
  readonly bullet: string;
  readonly level: number;
}

export interface StepBody {
  readonly title: string;
  readonly lines: readonly LineBody[];
  readonly media: { readonly type: string; readonly data: unknown };
}

export interface GuideLinkBody {
  readonly guideid: number;
  readonly locale: string;
  readonly type: string;
  readonly subject: string;
  readonly title: string;
  readonly url: string;
  readonly image: ImageBody;
}

/** The fields of the full guide body (guide.presenter.ts, reference §3.5) that the document shows. */
export interface GuideBody {
  readonly guideid: number;
  readonly title: string;
  readonly category: string;
  readonly subject: string;
  readonly type: string;
  readonly summary: string;
  readonly difficulty: string | null;
  readonly time_required: string;
  readonly introduction_raw: string;
  readonly introduction_rendered: string;
  readonly conclusion_raw: string;
  readonly conclusion_rendered: string;
  readonly image: ImageBody;
  readonly steps: readonly StepBody[];
  readonly parts: readonly ItemBody[];
  readonly tools: readonly ItemBody[];
  readonly prerequisites: readonly GuideLinkBody[];
  readonly flags: readonly { readonly title: string; readonly flagid: string; readonly text: string }[];
  readonly author: { readonly userid: number; readonly username: string };
  readonly created_date: number;
  readonly modified_date: number;
  readonly locale: string;
  /** The guide's page (the manifest lists it). */
  readonly url: string;
}

function writeItems(w: XmlOutput, list: 'tools' | 'parts', items: readonly ItemBody[]): void {
  w.open(list);
  for (const item of items) {
    w.leaf(list === 'tools' ? 'tool' : 'part', null, {
      name: item.text,
      quantity: String(item.quantity),
      notes: item.notes ?? undefined,
      type: item.type,
      url: item.url ? anyUri(item.url) : undefined,
      thumbnail: item.thumbnail ? anyUri(item.thumbnail) : undefined,
    });
  }
  w.close();
}

/** Step media the schema can hold: up to three images. Videos and embeds are known by id only here, so they are left out. */
function writeMedia(w: XmlOutput, media: StepBody['media']): void {
  if (media.type !== 'image' || !Array.isArray(media.data)) return;
  const images = (media.data as ImageBody[]).filter((image) => image).slice(0, 3);
  if (!images.length) return;
  w.open('media', { type: 'image' });
  for (const image of images) writeImage(w, image);
  w.close();
}

/** A prerequisite, with the path of its document in the archive. */
function writePrerequisite(w: XmlOutput, p: GuideLinkBody): void {
  w.open('prerequisite', { id: p.guideid, locale: p.locale, subject: p.subject, type: p.type });
  w.leaf('title', p.title);
  w.leaf('url', anyUri(p.url));
  w.leaf('path', prerequisitePath(p.guideid, p.title));
  writeImage(w, p.image);
  w.close();
}

/**
 * Writes a guide as an oManual guide document (omanual_guide.xsd) from the body the JSON API
 * answers with: the same data, mapped element by element. Steps are numbered from 0 in the order
 * of the body (prerequisite steps first when they are inlined).
 */
export function writeGuideDocument(w: XmlOutput, guide: GuideBody, options: Pick<OmanualOptions, 'raw'>): void {
  const raw = (value: string) => (options.raw ? value : undefined);
  w.open('guide', { locale: guide.locale });
  w.leaf('title', guide.title, { subject: guide.subject, type: guide.type });
  w.leaf('summary', guide.summary);
  writeImage(w, guide.image);
  w.leaf('author', guide.author.username, { id: String(guide.author.userid) });
  w.leaf('time_required', guide.time_required);
  if (guide.difficulty !== null) w.leaf('difficulty', guide.difficulty);
  w.leaf('category', guide.category);
  w.open('introduction', { introduction_raw: raw(guide.introduction_raw) }).html(guide.introduction_rendered).close();
  writeItems(w, 'tools', guide.tools);
  writeItems(w, 'parts', guide.parts);
  w.open('flags');
  for (const flag of guide.flags) w.leaf('flag', flag.text, { id: flag.flagid, title: flag.title });
  w.close();
  w.leaf('documents');
  w.open('prerequisites');
  for (const prerequisite of guide.prerequisites) writePrerequisite(w, prerequisite);
  w.close();
  w.open('steps');
  guide.steps.forEach((step, index) => {
    w.open('step', { number: index, title: step.title });
    w.open('lines');
    for (const line of step.lines.slice(0, 8)) {
      w.open('line', { bullet: line.bullet, level: line.level, text_raw: raw(line.text_raw) }).html(line.text_rendered).close();
    }
    w.close();
    writeMedia(w, step.media);
    w.close();
  });
  w.close();
  w.open('conclusion', { conclusion_raw: raw(guide.conclusion_raw) }).html(guide.conclusion_rendered).close();
  w.leaf('modified_date', isoDate(guide.modified_date));
  w.leaf('created_date', isoDate(guide.created_date));
  w.close();
}

/** The whole guide document as text. */
export function guideDocument(guide: GuideBody, options: OmanualOptions): string {
  const w = new XmlWriter(options);
  writeGuideDocument(w, guide, options);
  return w.end();
}

/** Where a guide's document lives in the archive. */
export function guideDocumentPath(guide: Pick<GuideBody, 'guideid' | 'title'>): string {
  return guidePath(guide.guideid, guide.title);
}
