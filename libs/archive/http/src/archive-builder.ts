import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { PassThrough, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RequestContext } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Guide, GuideQueries, GuideRepository, ReadGuideTranslation } from '@rc/guides-domain';
import { writeCategoryDocument, type CategoryBody, type CategoryGuideBody } from '@rc/catalog-http';
import { guideDocument, imageIdsOf, presentGuide, presentSummary, type GuideBody, type PresentationContext, type WikiRenderer } from '@rc/guides-http';
import type { UserSummaries } from '@rc/identity-contracts';
import type { ImageObject, MediaImageFiles, MediaImages } from '@rc/media-contracts';
import { NotFoundError, type Clock } from '@rc/shared-kernel';
import { categoryPath, guidePath, MANIFEST_PATH, anyUri, StreamingXmlWriter, type ImageBody } from '@rc/shared-http';
import { ArchiveMedia } from './archive-media.js';
import { NO_PROGRESS, type ArchiveProgress } from './archive-progress.js';
import { ArchiveZip } from './archive-zip.js';
import { compareTitles, type ArchiveSource, type CategoryRef, type GuideInCategory, type RemovedCategory, type RemovedGuide } from './archive-source.js';
import type { ArchiveInfo, ArchiveStore } from './archive-store.js';

export interface ArchiveBuilderDeps {
  readonly orm: MikroORM;
  readonly source: ArchiveSource;
  readonly store: ArchiveStore;
  readonly guides: GuideRepository;
  readonly queries: GuideQueries;
  /** The authors (without their standing, as the guides' XML shows them). */
  readonly users: UserSummaries;
  /** The Image objects the documents show (the media context's, as the guides' reader has them). */
  readonly images: MediaImages;
  /** Their files, packed into the archive. */
  readonly imageFiles: MediaImageFiles;
  readonly renderer: WikiRenderer;
  readonly baseUrl: string;
  /**
   * The body of `GET /categories/{name}` for an anonymous reader (the catalog's reader and
   * presenter); `langid`: the page as that language shows it.
   */
  readonly categoryBody: (title: string, langid?: string) => Promise<CategoryBody>;
  /** The guides' translations (archives per language); none: every guide in its own language. */
  readonly translations?: ReadGuideTranslation;
  readonly clock: Clock;
}

export interface BuildOptions {
  readonly progress?: ArchiveProgress;
  /** Stops the build between two documents; the partial file is removed. */
  readonly signal?: AbortSignal;
  /** Called after each document is written (tests interrupt a build here). */
  readonly afterDocument?: (written: number) => Promise<void> | void;
}

export interface BuildResult {
  readonly archive: ArchiveInfo;
  readonly guides: number;
  readonly categories: number;
  /** Image files packed under `media/`. */
  readonly mediaFiles: number;
  readonly ms: number;
}

/** An archive in one language, streamed per request. */
export interface LanguageResult {
  readonly langid: string;
  readonly guides: number;
  readonly categories: number;
  readonly mediaFiles: number;
  readonly ms: number;
}

export interface ChangesResult {
  readonly guides: number;
  readonly categories: number;
  /** Guides and categories listed as deleted or made private. */
  readonly deleted: number;
  readonly mediaFiles: number;
  readonly ms: number;
}

/** What a build writes: which guides, which categories, and each category's guides. */
interface ArchivePlan {
  readonly guideIds: AsyncIterable<number[]>;
  readonly categories: AsyncIterable<CategoryRef[]>;
  readonly guidesOf: (title: string) => AsyncIterable<number[]>;
  /** The language of the documents (an archive per language); none: each in its own. */
  readonly langid?: string;
}

/** The categories of a walk whose titles are in the set. */
async function* onlyTitles(pages: AsyncIterable<CategoryRef[]>, titles: ReadonlySet<string>): AsyncGenerator<CategoryRef[]> {
  if (!titles.size) return;
  for await (const page of pages) {
    const kept = page.filter((c) => titles.has(c.title));
    if (kept.length) yield kept;
  }
}

export class ArchiveBuildRunningError extends Error {
  constructor() {
    super('An archive build is already running in this process');
  }
}

/** Guides read and presented per database round. */
const GUIDE_PAGE = 100;
/** Rows per keyset page of the walks (ids, categories). */
const WALK_PAGE = 500;

const NOT_VIEWING = { canEdit: false, favorited: false, completed: false };

/**
 * Builds the offline archive: every public guide and every category as oManual documents (the
 * documents the API answers in XML, without the `*_raw` attributes, so each validates against
 * its schema) and a manifest, in one ZIP file, layout in `omanual-paths.ts` of @rc/shared-http.
 *
 * Streaming all the way, so memory does not grow with the content: ids are read in keyset pages,
 * a page of guides is loaded and presented (in a request context of its own, dropped after it),
 * each document is serialised and handed to the ZIP stream, which writes through to the file with
 * back-pressure; a category's guide list is written as it is read; the manifest is assembled in a
 * side file and appended last. The file is renamed into place only once complete (ArchiveStore).
 * The pictures the documents show (the media context's Image objects) are packed under `media/`
 * before the first document that shows them, each file streamed from the media store into its
 * entry (ArchiveMedia); what grows with the content is one number per image packed.
 */
export class ArchiveBuilder {
  private running: Promise<BuildResult> | null = null;

  constructor(private readonly deps: ArchiveBuilderDeps) {}

  get isRunning(): boolean {
    return this.running !== null;
  }

  /** One build at a time in a process. */
  build(options: BuildOptions = {}): Promise<BuildResult> {
    if (this.running) return Promise.reject(new ArchiveBuildRunningError());
    this.running = this.run(options).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The content version now (cheap): a build is due when it differs from the latest archive's. */
  contentVersion(): Promise<string> {
    return this.deps.source.contentVersion();
  }

  private async run(options: BuildOptions): Promise<BuildResult> {
    const { source, store, clock } = this.deps;
    const progress = options.progress ?? NO_PROGRESS;
    const started = clock.now();
    // Read first: content changed while building shows as a newer version at the next check.
    const contentVersion = await source.contentVersion();
    const counts = await source.counts();
    const pending = await store.begin();
    const hash = createHash('sha256');
    const zip = new ArchiveZip(pending.directoryPath);
    const file = createWriteStream(pending.path, { flags: 'wx' });
    const written = pipeline(
      zip.output,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      }),
      file,
    );
    written.catch(() => undefined); // awaited below; a failure also surfaces through the entries
    const manifest = new ManifestWriter(pending.manifestPath, pending.mediaListPath, this.deps.baseUrl, started);
    const media = new ArchiveMedia(this.deps.imageFiles, zip, started, (path, type) => manifest.media(path, type));
    let documents = 0;
    const done = async () => {
      documents++;
      progress.advance();
      await options.afterDocument?.(documents);
      options.signal?.throwIfAborted();
    };
    try {
      progress.start(counts.guides + counts.categories);
      const walk = new GuideWalk(source.publicGuidesByCategory(WALK_PAGE));
      const plan: ArchivePlan = {
        guideIds: source.publicGuideIds(GUIDE_PAGE),
        categories: source.categories(WALK_PAGE),
        guidesOf: (title) => walk.idsOf(title, GUIDE_PAGE * 5),
      };
      const { guides, categories } = await this.writeDocuments(zip, manifest, media, plan, done, options.signal);

      await manifest.end();
      await zip.add(createReadStream(pending.manifestPath), { name: MANIFEST_PATH, date: started });
      zip.finalize();
      await written;
      const archive = await pending.commit({ sha256: hash.digest('hex'), contentVersion, guides, categories, startedAt: started.toISOString() }, clock.now());
      await pending.discard();
      progress.finish();
      return { archive, guides, categories, mediaFiles: media.fileCount, ms: clock.now().getTime() - started.getTime() };
    } catch (error) {
      zip.destroy();
      file.destroy();
      await written.catch(() => undefined);
      await manifest.close();
      await pending.discard();
      throw error;
    }
  }

  /**
   * Streams an incremental archive into `out` (an HTTP response): the documents of the guides and
   * categories that changed since `since` (see ArchiveChanges), the media files they show, and a
   * manifest that also lists what was deleted or made private since then (`<deleted>`) and the time
   * up to which the archive is complete (`<changes since until>`). Built on demand, with the full
   * build's streaming: memory does not grow with the content, the ZIP goes out as it is written
   * (back-pressure from the client), and the manifest's side files are removed at the end, whatever
   * happens. `until`: the time to report as complete (the caller takes a margin before now).
   */
  async streamChanges(since: Date, until: Date, out: Writable, options: { signal?: AbortSignal } = {}): Promise<ChangesResult> {
    const { source } = this.deps;
    const signal = options.signal;
    let deleted = 0;
    const result = await this.streamArchive(out, { changes: { since, until } }, async (zip, manifest, media) => {
      const changes = source.changesSince(since);
      const titles = await changes.categoryTitles();
      const plan: ArchivePlan = {
        guideIds: changes.guideIds(GUIDE_PAGE),
        categories: onlyTitles(source.categories(WALK_PAGE), titles),
        guidesOf: (title) => changes.guideIdsOf(title, GUIDE_PAGE * 5),
      };
      const counts = await this.writeDocuments(zip, manifest, media, plan, async () => signal?.throwIfAborted(), signal);
      await manifest.beginDeleted();
      for await (const page of changes.removedGuides(WALK_PAGE)) {
        for (const guide of page) await manifest.removedGuide(guide);
        deleted += page.length;
        signal?.throwIfAborted();
      }
      for await (const page of changes.removedCategories(WALK_PAGE)) {
        for (const category of page) await manifest.removedCategory(category);
        deleted += page.length;
        signal?.throwIfAborted();
      }
      return counts;
    }, signal);
    return { ...result, deleted };
  }

  /**
   * Streams the archive in one language into `out` (an HTTP response): every public guide and
   * category as `GET /guides/{id}?langid=` and the category page in that language show them (the
   * translation where there is one, else the document's own language, each document's `locale`
   * saying which), with the full build's walks and the incremental archive's streaming.
   */
  async streamLanguage(langid: string, out: Writable, options: { signal?: AbortSignal } = {}): Promise<LanguageResult> {
    const { source } = this.deps;
    const signal = options.signal;
    const result = await this.streamArchive(out, { langid }, (zip, manifest, media) => {
      const walk = new GuideWalk(source.publicGuidesByCategory(WALK_PAGE));
      const plan: ArchivePlan = {
        guideIds: source.publicGuideIds(GUIDE_PAGE),
        categories: source.categories(WALK_PAGE),
        guidesOf: (title) => walk.idsOf(title, GUIDE_PAGE * 5),
        langid,
      };
      return this.writeDocuments(zip, manifest, media, plan, async () => signal?.throwIfAborted(), signal);
    }, signal);
    return { langid, ...result };
  }

  /**
   * A ZIP built as it is sent: `write` adds the documents (and whatever the manifest lists after
   * them), the manifest goes last; its side files are removed whatever happens, before the client
   * has the last byte.
   */
  private async streamArchive(
    out: Writable,
    kind: ManifestKind,
    write: (zip: ArchiveZip, manifest: ManifestWriter, media: ArchiveMedia) => Promise<{ guides: number; categories: number }>,
    signal: AbortSignal | undefined,
  ): Promise<{ guides: number; categories: number; mediaFiles: number; ms: number }> {
    const { store, clock } = this.deps;
    const started = clock.now();
    const scratch = await store.scratch();
    const zip = new ArchiveZip(scratch.directoryPath);
    const written = pipeline(zip.output, out);
    written.catch(() => undefined); // awaited below; a failure also surfaces through the entries
    const manifest = new ManifestWriter(scratch.manifestPath, scratch.mediaListPath, this.deps.baseUrl, started, kind);
    const media = new ArchiveMedia(this.deps.imageFiles, zip, started, (path, type) => manifest.media(path, type));
    try {
      const { guides, categories } = await write(zip, manifest, media);
      signal?.throwIfAborted();
      await manifest.end();
      await zip.add(createReadStream(scratch.manifestPath), { name: MANIFEST_PATH, date: started });
      // Read whole: the side files go before the client has the last byte.
      await scratch.discard();
      zip.finalize();
      await written;
      return { guides, categories, mediaFiles: media.fileCount, ms: clock.now().getTime() - started.getTime() };
    } catch (error) {
      zip.destroy();
      await written.catch(() => undefined);
      await manifest.close();
      throw error;
    } finally {
      await scratch.discard();
    }
  }

  /** The guides' documents (each after its images), then the categories': what both builds share. */
  private async writeDocuments(
    zip: ArchiveZip,
    manifest: ManifestWriter,
    media: ArchiveMedia,
    plan: ArchivePlan,
    done: () => Promise<void>,
    signal: AbortSignal | undefined,
  ): Promise<{ guides: number; categories: number }> {
    let guides = 0;
    for await (const ids of plan.guideIds) {
      signal?.throwIfAborted();
      const presented = await this.inContext(() => this.presentGuides(ids, plan.langid));
      for (const { body, path } of presented) {
        // Its images' files first (those not packed yet), then the document pointing at them.
        await media.pack(imagesOf(body));
        const xml = Buffer.from(guideDocument(localGuide(body, media), { raw: false }), 'utf8');
        await zip.add(xml, { name: path, date: new Date(body.modified_date * 1000) });
        await manifest.guide({ ...body, image: media.local(body.image, 0) }, path);
        guides++;
        await done();
      }
    }

    await manifest.beginDocuments();
    let categories = 0;
    for await (const page of plan.categories) {
      for (const category of page) {
        signal?.throwIfAborted();
        const written = await this.inContext(() => this.writeCategory(zip, media, category.id, category.title, plan.guidesOf(category.title), plan.langid));
        if (!written) continue;
        await manifest.category(category.id, category.title);
        categories++;
        await done();
      }
    }
    return { guides, categories };
  }

  /** Each page in a request context of its own: what it loads is dropped with it. */
  private inContext<T>(work: () => Promise<T>): Promise<T> {
    return RequestContext.create(this.deps.orm.em, work);
  }

  /**
   * Full guide bodies as an anonymous reader gets them (public prerequisites, no marks), prerequisite
   * steps not inlined; `langid`: as that language shows them (one lookup of translations for all).
   * Each with its document's path, named by the guide's title in its own language whatever the
   * language shown: the paths the categories and prerequisites point at, the same in every archive.
   */
  private async presentGuides(ids: number[], langid?: string): Promise<{ body: GuideBody; path: string }[]> {
    const found = (await this.deps.guides.findMany(ids)).filter((g: Guide) => g.state.isPublic && g.state.deletedAt === null);
    const loaded = langid !== undefined && this.deps.translations ? await this.deps.translations.many(found, langid) : found;
    const prerequisiteIds = [...new Set(loaded.flatMap((g) => g.state.prerequisites))];
    const prerequisites = new Map((await this.deps.queries.byIds(prerequisiteIds)).map((p) => [p.guideid, p]));
    const authorIds = [...new Set([...loaded.map((g) => g.state.authorId), ...[...prerequisites.values()].map((p) => p.authorId)])];
    const imageIds = [...loaded.flatMap(imageIdsOf), ...[...prerequisites.values()].flatMap((p) => (p.imageId === null ? [] : [p.imageId]))];
    const [authors, images] = await Promise.all([authorIds.length ? this.deps.users.of(authorIds) : new Map(), this.imagesOf(imageIds)]);
    const ctx: PresentationContext = { baseUrl: this.deps.baseUrl, renderer: this.deps.renderer, authors, images };
    return loaded.map((guide, i) => ({
      body: presentGuide(guide, ctx, {
        prerequisites: guide.state.prerequisites.flatMap((id) => prerequisites.get(id) ?? []),
        inlined: [],
        viewer: NOT_VIEWING,
      }),
      path: guidePath(guide.id, found[i]!.state.title),
    }));
  }

  /** The Image objects of these ids, in one lookup (none for no id). */
  private async imagesOf(ids: readonly number[]): Promise<ReadonlyMap<number, ImageObject>> {
    const unique = [...new Set(ids)];
    return unique.length ? this.deps.images.objects(unique) : new Map();
  }

  /**
   * A category's document, streamed into its entry; `false` when the category is gone meanwhile.
   * Its own image is packed before the entry opens; its guides' images are their guides' (packed
   * with them: files cannot be added while the entry is being written), so an image not packed yet
   * (a guide published during the build) keeps its online URLs.
   */
  private async writeCategory(zip: ArchiveZip, media: ArchiveMedia, id: number, title: string, guideIds: AsyncIterable<number[]>, langid?: string): Promise<boolean> {
    let body: CategoryBody;
    try {
      body = await this.deps.categoryBody(title, langid);
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
    await media.pack([body.image]);
    body = { ...body, image: media.local(body.image ?? null, 0) };
    const stream = new PassThrough();
    const added = zip.add(stream, { name: categoryPath(id, title), date: this.deps.clock.now() });
    const push = async (text: string) => {
      if (text && !stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
    };
    try {
      const w = new StreamingXmlWriter();
      await writeCategoryDocument(w, body, { raw: false, sink: push }, this.guidesOf(guideIds, media));
      await push(w.end());
      stream.end();
      await added;
    } catch (error) {
      stream.destroy(error as Error);
      await added.catch(() => undefined);
      throw error;
    }
    return true;
  }

  /** The category's public guides as its body lists them (GuideSummary), read a page at a time. */
  private async *guidesOf(guideIds: AsyncIterable<number[]>, media: ArchiveMedia): AsyncGenerator<CategoryGuideBody> {
    for await (const ids of guideIds) {
      const views = await this.deps.queries.byIds(ids);
      const images = await this.imagesOf(views.flatMap((v) => (v.imageId === null ? [] : [v.imageId])));
      const ctx: PresentationContext = { baseUrl: this.deps.baseUrl, renderer: this.deps.renderer, authors: new Map(), images };
      for (const view of views) {
        const summary = presentSummary(view, ctx);
        yield { ...summary, image: media.local(summary.image, 0) };
      }
    }
  }
}

/** The images a guide's document shows: its own, its steps' and its prerequisites'. */
function imagesOf(guide: GuideBody): ImageBody[] {
  const steps = guide.steps.flatMap((step) => (step.media.type === 'image' && Array.isArray(step.media.data) ? (step.media.data as ImageBody[]) : []));
  return [guide.image, ...steps, ...guide.prerequisites.map((p) => p.image)];
}

/** The guide as its document in the archive shows it (one folder down): packed image sizes by relative path. */
function localGuide(guide: GuideBody, media: ArchiveMedia): GuideBody {
  const local = (image: ImageBody) => media.local(image, 1);
  return {
    ...guide,
    image: local(guide.image),
    steps: guide.steps.map((step) =>
      step.media.type === 'image' && Array.isArray(step.media.data) ? { ...step, media: { ...step.media, data: (step.media.data as ImageBody[]).map(local) } } : step,
    ),
    prerequisites: guide.prerequisites.map((p) => ({ ...p, image: local(p.image) })),
  };
}

/**
 * Walks the public guides in category order beside the categories (both in byte order of the
 * title), handing each category the ids of its guides; guides of a category that no longer
 * exists are passed over.
 */
class GuideWalk {
  private page: GuideInCategory[] = [];
  private index = 0;
  private exhausted = false;

  constructor(private readonly pages: AsyncGenerator<GuideInCategory[]>) {}

  private async peek(): Promise<GuideInCategory | null> {
    while (this.index >= this.page.length) {
      if (this.exhausted) return null;
      const next = await this.pages.next();
      if (next.done) {
        this.exhausted = true;
        return null;
      }
      this.page = next.value;
      this.index = 0;
    }
    return this.page[this.index]!;
  }

  async *idsOf(title: string, batch: number): AsyncGenerator<number[]> {
    let ids: number[] = [];
    for (let next = await this.peek(); next; next = await this.peek()) {
      const order = compareTitles(next.category, title);
      if (order > 0) break;
      this.index++;
      if (order < 0) continue;
      ids.push(next.id);
      if (ids.length >= batch) {
        yield ids;
        ids = [];
      }
    }
    if (ids.length) yield ids;
  }
}

/** What an archive is: the full one (nothing), the changes between two times, or one language's. */
interface ManifestKind {
  readonly changes?: { since: Date; until: Date };
  readonly langid?: string;
}

/**
 * The package manifest (oManual's index of a package): every guide with its path, then every
 * category document, then every media file. Written to a side file while the documents go into
 * the ZIP, then appended; the media files, packed between the documents, are listed in a second
 * side file (a path and type a line) copied into the first at the end.
 */
class ManifestWriter {
  private readonly xml = new StreamingXmlWriter();
  private readonly file: WriteStream;
  private readonly opened: Promise<void>;
  private readonly mediaList: WriteStream;

  /** `kind.changes`: an incremental archive's (what it holds is what changed between the two); `kind.langid`: an archive in that language. */
  constructor(
    path: string,
    private readonly mediaListPath: string,
    baseUrl: string,
    builtAt: Date,
    kind: ManifestKind = {},
  ) {
    const { changes, langid } = kind;
    this.file = createWriteStream(path, { flags: 'wx' });
    this.opened = new Promise((resolve, reject) => this.file.once('open', () => resolve()).once('error', reject));
    this.opened.catch(() => undefined);
    this.mediaList = createWriteStream(mediaListPath, { flags: 'wx' });
    this.mediaList.on('error', () => undefined); // a failed write rejects `media` (events.once)
    this.xml.open('manifest', { locale: langid ?? 'en' });
    if (changes) {
      this.xml.leaf('title', 'Repair-Content API offline archive: changes');
      this.xml.leaf(
        'description',
        `The public guides and categories of ${baseUrl} changed since ${changes.since.toISOString()} as oManual documents, and those deleted or made private since then, built ${builtAt.toISOString()}.`,
      );
      this.xml.leaf('changes', null, { since: seconds(changes.since), until: seconds(changes.until) });
    } else if (langid !== undefined) {
      this.xml.leaf('title', `Repair-Content API offline archive (${langid})`);
      this.xml.leaf(
        'description',
        `Every public guide and category of ${baseUrl} as oManual documents in '${langid}' where translated (else in their own language, as each document's locale says), built ${builtAt.toISOString()}.`,
      );
    } else {
      this.xml.leaf('title', 'Repair-Content API offline archive');
      this.xml.leaf('description', `Every public guide and category of ${baseUrl} as oManual documents, built ${builtAt.toISOString()}.`);
    }
    this.xml.open('guides');
  }

  /** `path`: its document's (named by its title in its own language). */
  async guide(guide: GuideBody, path: string): Promise<void> {
    this.xml.open('guide', { id: guide.guideid, subject: guide.subject, type: guide.type });
    this.xml.leaf('title', guide.title);
    this.xml.leaf('path', path);
    this.xml.leaf('url', anyUri(guide.url));
    const image = guide.image;
    if (image && typeof image['thumbnail'] === 'string') this.xml.leaf('thumbnail', image['thumbnail']);
    if (image && typeof image['original'] === 'string') this.xml.leaf('image_url', image['original']);
    this.xml.close();
    await this.flush();
  }

  async beginDocuments(): Promise<void> {
    this.xml.close();
    this.xml.open('documents');
    await this.flush();
  }

  async category(id: number, title: string): Promise<void> {
    this.xml.leaf('document', categoryPath(id, title), { id, type: 'category' });
    await this.flush();
  }

  /** After the documents: the list of what a copy must remove. */
  async beginDeleted(): Promise<void> {
    this.xml.close();
    this.xml.open('deleted');
    await this.flush();
  }

  /** A guide deleted or made private: its id, why, when, and the path its document had. */
  async removedGuide(guide: RemovedGuide): Promise<void> {
    this.xml.open('guide', { id: guide.id, reason: guide.reason, date: seconds(guide.removedAt) });
    this.xml.leaf('path', guidePath(guide.id, guide.title));
    this.xml.close();
    await this.flush();
  }

  /** A category deleted: its document's path (as it was), id and when. */
  async removedCategory(category: RemovedCategory): Promise<void> {
    this.xml.leaf('document', categoryPath(category.id, category.title), { id: category.id, type: 'category', reason: 'deleted', date: seconds(category.removedAt) });
    await this.flush();
  }

  /** A media file of the package (its path from the root: `media/…`). */
  async media(path: string, contentType: string): Promise<void> {
    await writeTo(this.mediaList, `${path}\t${contentType}\n`);
  }

  async end(): Promise<void> {
    this.xml.close();
    this.xml.open('media');
    await endStream(this.mediaList);
    const lines = createInterface({ input: createReadStream(this.mediaListPath, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      const [path, type] = line.split('\t');
      if (!path) continue;
      this.xml.leaf('file', path, { type });
      await this.flush();
    }
    await this.write(this.xml.end());
    await this.close();
  }

  async close(): Promise<void> {
    await endStream(this.mediaList);
    if (this.file.closed) return;
    await new Promise<void>((resolve) => this.file.end(() => resolve()));
  }

  private async flush(): Promise<void> {
    if (this.xml.pendingLength >= 64 * 1024) await this.write(this.xml.take());
  }

  private async write(text: string): Promise<void> {
    await this.opened;
    if (text && !this.file.write(text)) await new Promise<void>((resolve) => this.file.once('drain', resolve));
  }
}

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

async function writeTo(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

async function endStream(stream: WriteStream): Promise<void> {
  if (stream.closed || stream.writableFinished) return;
  await new Promise<void>((resolve) => stream.end(() => resolve()));
}
