import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GuideEditors, GuideId } from '@rc/guides-domain';
import vary from 'vary';
import { acceptsGzip, newestRevisionNamed, NOT_MODIFIED, representsRevision, sendJsonBytes, SerializedJson, ViewWindows } from '@rc/shared-http';
import type { ViewCounter } from '@rc/shared-kernel';
import { answerFromPrimary } from '@rc/shared-infra-mikro-orm';
import { notModified, type CachedBody, type GuideBodyCache } from './guide-body-cache.js';
import type { Logger } from 'pino';
import { fillTemplate, usersIn, viewsIn, withViews, type BodyTemplate } from './guide-body-template.js';
import type { GuideBodyStore, VersionWithBody } from './guide-body-store.js';
import type { GuideReader } from './guide-reader.js';
import type { GuideVersions } from './guide-versions.js';
import type { UserPartsCache } from './user-parts.js';

/** The viewer's fields as an anonymous body has them (presentGuide writes them together, in this order, once). */
const ANONYMOUS_VIEWER = '"can_edit":false,"favorited":false,"completed":false';

/**
 * An anonymous guide body as this viewer reads it: its `can_edit`, `favorited` and `completed` set.
 * `null` when the body does not hold the anonymous fields exactly once. No text can look like
 * them: JSON escapes the quotes inside strings.
 */
export function withViewer<T extends string | Buffer>(json: T, viewer: { readonly canEdit: boolean; readonly favorited: boolean; readonly completed: boolean }): T | null {
  const at = json.indexOf(ANONYMOUS_VIEWER);
  if (at < 0 || json.includes(ANONYMOUS_VIEWER, at + 1)) return null;
  const fields = `"can_edit":${viewer.canEdit},"favorited":${viewer.favorited},"completed":${viewer.completed}`;
  const end = at + ANONYMOUS_VIEWER.length;
  // Offsets in bytes for a Buffer, in characters for a string: the fields are ASCII either way.
  return (typeof json === 'string' ? `${json.slice(0, at)}${fields}${json.slice(end)}` : Buffer.concat([json.subarray(0, at), Buffer.from(fields), json.subarray(end)])) as T;
}

/**
 * The stored body a version lookup read, as `body` takes it: `undefined` (not read: read it if
 * needed) when the lookup left it out because the kept body is of that version (see
 * GuideBodyStore.current); else the stored body, or `null` for none.
 */
function storedOf(row: VersionWithBody, held: string): BodyTemplate | null | undefined {
  return row.body ?? (row.version === held ? undefined : null);
}

export const guideBodyKey = (guideId: number, inlinePrerequisites: boolean) => `${guideId}:${inlinePrerequisites ? 'inline' : 'own'}`;

export interface PublicGuideBodiesOptions {
  /** Counts the views of guides (see ViewCounter); no counting without it. */
  readonly views?: ViewCounter;
  /** The wall-clock windows in which a kept body shows one view count (see ViewWindows; by default 30 s). */
  readonly viewWindows?: ViewWindows;
}

/**
 * `GET /guides/{id}` for anonymous readers of public guides: the guide's current version (remembered,
 * or one cheap lookup), then the serialized body built from that version: from memory, else from the
 * read model (one row, the user objects filled in), else built and stored there. Answers carry a
 * strong ETag (the revision and a hash of the bytes), `Last-Modified` and `Cache-Control: public,
 * no-cache`, so a gateway may keep them and revalidate; a matching `If-None-Match` (or, without one,
 * an `If-Modified-Since` no earlier than `Last-Modified`) is a 304 without building anything.
 *
 * Views are not part of a guide's version (they change all the time): a body shows the count
 * stored when it was made, or the higher one this instance has learned since (from its own
 * flushes, which return every instance's totals, or from a lookup), and keeps it for the rest of
 * its wall-clock views window (ViewWindows, as wiki pages do): at the first read in a later window,
 * a higher known count is set (bytes and ETag with it), and every body of the guide made in that
 * window (another key, or one rebuilt after it was dropped) shows the same count. Between window
 * starts the bytes and ETag stay as they are however often the counts are flushed, so
 * revalidations get 304s, and instances change a guide's body at the same moments.
 */
export class PublicGuideBodies {
  /** Requests the fast path handed on after finding their guide not public (one lookup per request). */
  private readonly notPublic = new WeakSet<IncomingMessage>();
  /** Bodies being made, by key and version: concurrent misses of one body wait for the same work. */
  private readonly making = new Map<string, Promise<{ entry: CachedBody; json: string }>>();

  constructor(
    private readonly reader: GuideReader,
    private readonly versions: GuideVersions,
    readonly cache: GuideBodyCache,
    private readonly store: GuideBodyStore,
    readonly users: UserPartsCache,
    private readonly logger: Pick<Logger, 'warn'>,
    /** Runs ORM work in a context of its own (the fast path runs ahead of the request middleware that makes one). */
    private readonly inContext: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
    private readonly options: PublicGuideBodiesOptions = {},
  ) {
    this.windows = options.viewWindows ?? new ViewWindows(30_000);
  }

  private readonly windows: ViewWindows;

  /** A view of the guide (a 200 or a 304 of its current version): counted in memory, written in batches. */
  viewed(guideId: number): void {
    this.options.views?.record(guideId);
  }

  /** The kept body of this version, if any, with its view count brought up to date (see the class). */
  cached(guideId: number, inlinePrerequisites: boolean, version: string): CachedBody | null {
    const key = guideBodyKey(guideId, inlinePrerequisites);
    const entry = this.cache.get(key, version);
    if (!entry) return null;
    if (entry.views === null) return entry;
    const window = this.windows.current();
    const views = this.shownViews(guideId, window, entry.views);
    return views === entry.views ? entry : this.cache.refreshViews(key, entry, views, window);
  }

  /**
   * The count a body of the guide shows now: without windows, the higher of `shown` (what the
   * body shows) and the stored total known; within a window, the count set at its first body
   * (that higher one then), so every body of the guide made or refreshed in the window, whichever
   * key and however often rebuilt, shows the same bytes.
   */
  private shownViews(guideId: number, window: number | null, shown: number): number {
    const known = this.options.views?.known(guideId);
    return this.windows.settle(guideId, known !== undefined && known > shown ? known : shown, window);
  }

  /** The body (or NOT_MODIFIED), with its headers set; `null` when the guide is not public: the caller answers as usual. */
  async read(guideId: GuideId, inlinePrerequisites: boolean, req: IncomingMessage, res: ServerResponse): Promise<object | null> {
    if (req.headers['if-none-match'] !== undefined) this.versions.forgetOlderThan(guideId, newestRevisionNamed(req.headers['if-none-match']));
    const made = this.notPublic.has(req) ? null : await this.current(guideId, inlinePrerequisites);
    if (!made) return null;
    const { entry, json } = made;
    const gzip = acceptsGzip(req);
    this.setHeaders(entry, res, gzip);
    if (notModified(req.headers, gzip ? entry.etagGzip : entry.etag, entry.lastModified)) return NOT_MODIFIED;
    return gzip ? new SerializedJson(entry.gzip, 'gzip') : new SerializedJson(json ?? this.cache.json(entry));
  }

  /**
   * A signed-in reader's body of a public guide (a JSON read of its current revision): the
   * anonymous body of its current version (kept, stored or built, as anonymous reads get it) with
   * the reader's `can_edit`, `favorited` and `completed`. Besides the token, one statement on the
   * primary reads the version, the stored body, who may edit the guide and the reader's marks: no
   * guide is loaded and nothing is presented again, and the answer is as fresh as a read of the
   * guide itself (with read replicas, the request then stays on the primary: see
   * answerFromPrimary). `null` when that body is not the reader's: the guide is not public, or some
   * of its prerequisites are not (its editors may see them); the route then builds the reader's body.
   * `mayEdit`: whether the reader may edit a guide with these editors.
   */
  async readFor(guideId: GuideId, inlinePrerequisites: boolean, userId: number, mayEdit: (editors: GuideEditors) => Promise<boolean>, res: object): Promise<SerializedJson | null> {
    const held = this.cache.heldVersion(guideBodyKey(guideId, inlinePrerequisites));
    const row = await this.store.currentFor(guideId, inlinePrerequisites, userId, held);
    if (!row || row.hiddenPrerequisites > 0) return null;
    // Read on the primary (and the body kept coherent with it): so is the rest of the request, and its consistency token.
    answerFromPrimary();
    if (row.views !== undefined && row.views !== null) this.options.views?.learn(guideId, row.views);
    const [{ entry, json }, canEdit] = await Promise.all([this.body(guideId, inlinePrerequisites, row.version, storedOf(row, held)), mayEdit(row.editors)]);
    const text = withViewer<string | Buffer>(json ?? this.cache.json(entry), { canEdit, favorited: row.favorited, completed: row.completed });
    if (text === null) return null;
    representsRevision(res, parseInt(row.version, 10), entry.lastModified === null ? null : Date.parse(entry.lastModified) / 1000);
    return new SerializedJson(text);
  }

  /**
   * The current body of a public guide (`null`: not public), its version remembered or looked up
   * together with the stored body of that version (left out when the body of that version is kept
   * here): a miss of a stored body is one statement.
   */
  async current(guideId: number, inlinePrerequisites: boolean): Promise<{ entry: CachedBody; json: string | null } | null> {
    const held = this.cache.heldVersion(guideBodyKey(guideId, inlinePrerequisites));
    const { version, row } = await this.versions.version(guideId, () => this.store.current(guideId, inlinePrerequisites, held));
    if (row?.views !== undefined && row.views !== null) this.options.views?.learn(guideId, row.views);
    return version === null ? null : this.body(guideId, inlinePrerequisites, version, row ? storedOf(row, held) : undefined);
  }

  /**
   * The cached body of this version, or one made now (and cached); `json` when it is at hand.
   * `stored`: the read model's body of this version when already read (`null`: there is none).
   */
  private async body(guideId: number, inlinePrerequisites: boolean, version: string, stored?: BodyTemplate | null): Promise<{ entry: CachedBody; json: string | null }> {
    const key = guideBodyKey(guideId, inlinePrerequisites);
    const entry = this.cached(guideId, inlinePrerequisites, version);
    if (entry) return { entry, json: null };
    const making = `${key}@${version}`;
    let made = this.making.get(making);
    if (!made) {
      made = this.make(guideId, inlinePrerequisites, version, stored).finally(() => this.making.delete(making));
      this.making.set(making, made);
    }
    return made;
  }

  private async make(guideId: number, inline: boolean, version: string, stored: BodyTemplate | null | undefined): Promise<{ entry: CachedBody; json: string }> {
    const mark = this.versions.sequence;
    const window = this.windows.current();
    const template = await this.template(guideId, inline, version, stored);
    const users = usersIn(template);
    const filled = fillTemplate(template, await this.users.parts(users));
    // The template shows the count of when it was built: the count of this window (see shownViews).
    const built = viewsIn(filled);
    const views = built === null ? null : this.shownViews(guideId, window, built);
    const json = views === null || views === built ? filled : withViews(filled, views);
    // Kept until an announced change when no change to the users it shows was announced meanwhile.
    return this.cache.put(guideBodyKey(guideId, inline), version, json, users, this.versions.usersUnchangedSince(mark, users), window);
  }

  /**
   * The read model's template of this version (`stored` when already read, else read now), or one
   * built now and stored for the next miss (of any instance).
   */
  private async template(guideId: number, inline: boolean, version: string, stored: BodyTemplate | null | undefined): Promise<BodyTemplate> {
    const found = stored === undefined ? await this.store.read(guideId, inline, version) : stored;
    if (found) return found;
    const built = await this.inContext(() => this.reader.anonymousTemplate(guideId as GuideId, inline));
    this.store.write([{ guideId, inline, version, body: built }]).catch((err: unknown) => this.logger.warn({ err, guideId }, 'guide body not stored'));
    return built;
  }

  /** Hands a request on to the route, its guide just found not public (the route answers why). */
  handOnNotPublic(req: IncomingMessage): void {
    this.notPublic.add(req);
  }

  /** Answers a cached body directly (the fast path), with exactly the headers of the route. */
  answer(entry: CachedBody, req: IncomingMessage, res: ServerResponse, json: string | null = null): void {
    vary(res, 'Accept');
    const gzip = acceptsGzip(req);
    this.setHeaders(entry, res, gzip);
    if (notModified(req.headers, gzip ? entry.etagGzip : entry.etag, entry.lastModified)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    // Its validators are set above: sendJsonBytes sends the bytes as every answer goes out.
    sendJsonBytes(req, res, 200, gzip ? entry.gzip : (json ?? this.cache.json(entry)), null, gzip ? 'gzip' : null);
  }

  private setHeaders(entry: CachedBody, res: ServerResponse, gzip: boolean): void {
    res.setHeader('ETag', gzip ? entry.etagGzip : entry.etag);
    if (entry.lastModified) res.setHeader('Last-Modified', entry.lastModified);
    res.setHeader('Cache-Control', 'public, no-cache');
    vary(res, 'Authorization');
    vary(res, 'Accept-Encoding');
  }
}
