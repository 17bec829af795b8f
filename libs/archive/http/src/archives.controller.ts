import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { Controller, Get, HttpException, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Clock, InvalidParameterError, NotFoundError, parseLangid, RateLimitedError } from '@rc/shared-kernel';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { Endpoint, LOGGER } from '@rc/shared-http';
import { ArchiveBuilder } from './archive-builder.js';
import { ARCHIVE_SETTINGS, type ArchiveSettings } from './archive-settings.js';
import { ArchiveScheduler, type ArchiveSchedule } from './archive-scheduler.js';
import { ArchiveStore, type ArchiveInfo } from './archive-store.js';

export class ArchiveNotBuiltError extends NotFoundError {
  readonly code = 'ARCHIVE.NOT_BUILT';
  constructor(schedule: ArchiveSchedule) {
    super(`No offline archive has been built yet: ${ArchiveNotBuiltError.when(schedule)}`);
  }

  /** When one will exist, from what the scheduler of this process is doing. */
  static when(schedule: ArchiveSchedule): string {
    switch (schedule.state) {
      case 'building':
        return schedule.total
          ? `the first one is being built (${schedule.done} of ${schedule.total} documents written, about ${schedule.eta} left) and is served here as soon as it is complete`
          : 'the first one is being built and is served here as soon as it is complete';
      case 'waiting':
        return `the server builds one when it finds the content changed, next at ${schedule.nextCheckAt.toISOString()}; an operator can build one now with \`npm run cli -- archive:build\``;
      case 'off':
        return 'scheduled builds are off in this process (ARCHIVE_CHECK_SECONDS=0); an operator can build one with `npm run cli -- archive:build`';
    }
  }
}

export class ArchiveNotFoundError extends NotFoundError {
  readonly code = 'ARCHIVE.NOT_FOUND';
  constructor() {
    super('Archive not found: GET /archives lists the archives kept');
  }
}

export class ArchiveChangesBusyError extends RateLimitedError {
  readonly code = 'ARCHIVE.CHANGES_BUSY';
  constructor(limit: number) {
    super(`This server is already building ${limit} archive${limit === 1 ? '' : 's'} per request (incremental or in a language); retry in a few seconds`, 5);
  }
}

/**
 * Changes are reported complete up to this long before the build starts: a write that took its
 * time (`modified_at`, the clock `since` compares) before committing still shows in the next
 * archive asked with `since` = this one's `until`. Sending a minute's changes twice is harmless.
 */
export const CHANGES_MARGIN_SECONDS = 60;

/** The 400 of a `since` that is not UNIX seconds. */
const SINCE_BAD_REQUEST = "Parameter 'since' must be a UNIX timestamp in seconds (the `until` of the manifest of the archive your copy was last updated from)";

/** `since`: UNIX seconds, not in the future; `undefined` when absent (the full archive). */
export function sinceOf(query: Record<string, unknown>, now: Date): Date | undefined {
  const raw = Array.isArray(query['since']) ? (query['since'] as unknown[]).at(-1) : query['since'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[0-9]{1,12}$/.test(raw.trim())) {
    throw new InvalidParameterError(SINCE_BAD_REQUEST);
  }
  const since = new Date(Number(raw.trim()) * 1000);
  if (since.getTime() > now.getTime()) {
    throw new InvalidParameterError(`Parameter 'since' is in the future (${since.toISOString()}; the server's time is ${now.toISOString()})`);
  }
  return since;
}

/** An archive as the listing shows it. */
export function presentArchive(archive: ArchiveInfo, baseUrl: string, latest: boolean) {
  return {
    name: archive.name,
    url: `${baseUrl}/api/2.0/archives/omanual/${archive.name}`,
    size: archive.size,
    built_date: Math.floor(archive.builtAt.getTime() / 1000),
    etag: archive.etag,
    guides: archive.guides,
    categories: archive.categories,
    changes_since: archive.startedAt ? Math.floor(archive.startedAt.getTime() / 1000) - CHANGES_MARGIN_SECONDS : null,
    latest,
  };
}

/** What `perRequest` streams: its validators and name, and the build writing into the response. */
interface PerRequestArchive {
  readonly etag: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly filename: string;
  readonly log: Readonly<Record<string, unknown>>;
  readonly message: string;
  readonly stream: (signal: AbortSignal) => Promise<object>;
}

const DOWNLOAD = {
  description:
    'The ZIP file (`application/zip`). `ETag` (the SHA-256 of the file) and `Last-Modified` come with it; `If-None-Match` / `If-Modified-Since` answer 304, ' +
    '`Range` answers 206 with the part asked for (resume a download with `Range` and `If-Range`), an unsatisfiable range 416.',
  content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
};

const ARCHIVE_ITEM = {
  type: 'object',
  properties: {
    name: { type: 'string', example: 'omanual-20261122T101500123Z.zip' },
    url: { type: 'string' },
    size: { type: 'integer', description: 'Bytes' },
    built_date: { type: 'integer', description: 'UNIX seconds' },
    etag: { type: 'string' },
    guides: { type: 'integer', nullable: true },
    categories: { type: 'integer', nullable: true },
    changes_since: {
      type: 'integer',
      nullable: true,
      description: 'UNIX seconds: the `since` to ask `GET /archives/omanual?since=` with to update a copy made from this archive (a minute before its build began reading the content)',
    },
    latest: { type: 'boolean' },
  },
};

/**
 * The offline archive of oManual documents (every public guide and category): the latest one,
 * the ones kept, and each by name. Built by `npm run cli -- archive:build` or the server's
 * scheduled rebuild, never by a request.
 */
@ApiTags('Offline archive')
@Controller('archives')
export class ArchivesController {
  /** Incremental archives being streamed by this process. */
  private building = 0;

  constructor(
    private readonly store: ArchiveStore,
    private readonly scheduler: ArchiveScheduler,
    private readonly builder: ArchiveBuilder,
    private readonly clock: Clock,
    @Inject(ARCHIVE_SETTINGS) private readonly config: ArchiveSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get()
  @Endpoint({ summary: 'The offline archives kept (the newest few), newest first' })
  @ApiOkResponse({ schema: { type: 'array', items: ARCHIVE_ITEM } })
  async list() {
    const archives = await this.store.list();
    return archives.map((a, i) => presentArchive(a, this.config.publicBaseUrl, i === 0));
  }

  @Get('omanual')
  @Endpoint({
    summary: 'Download the latest offline archive, or only what changed since a time',
    description:
      'A ZIP of oManual documents: `manifest.xml` (the index), one `<Title>-<id>/guide.xml` per public guide, one `<Title>-<id>.xml` per category, ' +
      'and the pictures they show under `media/` (thumbnail, standard, medium and large sizes; the documents point at them by relative path).\n\n' +
      'With `since` (UNIX seconds): an **incremental archive**, built for the request and streamed as it is built (no `Content-Length`, no `Range`): ' +
      'the same layout, holding only the guides and categories whose documents changed since then (and the pictures they show), its manifest also holding ' +
      '`<changes since until/>` and a `<deleted>` list of the guides deleted or made private since then (`<guide id reason date><path/></guide>`) and the categories deleted ' +
      '(`<document id type="category" reason="deleted" date>path</document>`). Apply the documents (replacing those of the same id: a renamed one has a new path), then the deletions, ' +
      'and ask next time with `since` = `until` (also in the `X-Archive-Until` header). A weak `ETag` (304 with `If-None-Match`) stays while nothing changes. ' +
      '`since` not a UNIX timestamp, or in the future: 400; more builds at once than the server allows: 429 with `Retry-After`.\n\n' +
      'With `langid` (a two-letter code): the **archive in that language**, built for the request and streamed the same way (weak `ETag`, 304, the same limit): every public guide and category ' +
      'as `GET /guides/{id}?langid=` and the category page in that language show them (the translation where there is one, else the document in its own language, its `locale` saying which; ' +
      'a translated guide\'s folder is named by its translated title), the manifest\'s `locale` the language asked. An unknown language code, or `langid` with `since`: 400.',
    errors: [400, 404, 429], notFound: 'Archive not found: GET /archives lists the archives kept', badRequest: SINCE_BAD_REQUEST,
  })
  @ApiQuery({ name: 'since', required: false, type: 'integer', description: 'UNIX seconds: only what changed since then (an incremental archive)', example: 1764000000 })
  @ApiQuery({ name: 'langid', required: false, type: String, description: 'A two-letter language code: every document in that language where translated (an archive built per request; not with `since`)', example: 'de' })
  @ApiProduces('application/zip')
  @ApiResponse({ status: 200, ...DOWNLOAD })
  @ApiResponse({ status: 206, description: 'The range asked for (one range: `Content-Range` says which)', content: DOWNLOAD.content })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match or If-Modified-Since)' })
  async latest(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const since = sinceOf(query, this.clock.now());
    const langid = parseLangid(query['langid']);
    if (langid !== undefined && since) {
      throw new InvalidParameterError("Parameters 'langid' and 'since' cannot be combined: an archive in a language is always complete (ask it without 'since')");
    }
    if (langid !== undefined) return this.language(langid, req, res);
    if (since) return this.changes(since, req, res);
    const archive = await this.store.latest();
    if (!archive) throw new ArchiveNotBuiltError(this.scheduler.schedule());
    await this.download(archive, req, res);
  }

  @Get('omanual/:name')
  @Endpoint({ summary: 'Download a kept archive by name (as GET /archives lists them)', errors: [404], notFound: 'Archive not found: GET /archives lists the archives kept' })
  @ApiParam({ name: 'name', example: 'omanual-20261122T101500123Z.zip' })
  @ApiProduces('application/zip')
  @ApiResponse({ status: 200, ...DOWNLOAD })
  @ApiResponse({ status: 206, description: 'The range asked for (one range: `Content-Range` says which)', content: DOWNLOAD.content })
  async named(@Param('name') name: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const archive = await this.store.find(name);
    if (!archive) throw new ArchiveNotFoundError();
    await this.download(archive, req, res);
  }

  /** An incremental archive (ArchiveBuilder.streamChanges), streamed per request. */
  private changes(since: Date, req: Request, res: Response): Promise<void> {
    const sinceSeconds = Math.floor(since.getTime() / 1000);
    return this.perRequest(req, res, async () => {
      const now = this.clock.now();
      const until = new Date(Math.max(since.getTime(), Math.floor(now.getTime() / 1000 - CHANGES_MARGIN_SECONDS) * 1000));
      const untilSeconds = Math.floor(until.getTime() / 1000);
      return {
        etag: `W/"changes-${sinceSeconds}-${await this.versionHash()}"`,
        headers: { 'X-Archive-Until': String(untilSeconds) },
        filename: `omanual-changes-${sinceSeconds}-${untilSeconds}.zip`,
        log: { since: sinceSeconds, until: untilSeconds },
        message: 'incremental archive',
        stream: (signal) => this.builder.streamChanges(since, until, res, { signal }),
      };
    });
  }

  /** The archive in one language (ArchiveBuilder.streamLanguage), streamed per request. */
  private language(langid: string, req: Request, res: Response): Promise<void> {
    return this.perRequest(req, res, async () => ({
      etag: `W/"lang-${langid}-${await this.versionHash()}"`,
      headers: {},
      filename: `omanual-${langid}.zip`,
      log: { langid },
      message: 'archive in a language',
      stream: (signal) => this.builder.streamLanguage(langid, res, { signal }),
    }));
  }

  /** The content version (it changes with any revision, translations' included), hashed for an ETag. */
  private async versionHash(): Promise<string> {
    return createHash('sha256').update(await this.builder.contentVersion()).digest('hex').slice(0, 32);
  }

  /**
   * Streams an archive built for the request as the response: a few at once per process (the
   * incremental ones and those in a language count together); a weak ETag from the content
   * version answers `If-None-Match` with 304 before anything is built; a client that goes away
   * stops the build at the next document. Once the first bytes are out, a failure can only cut
   * the response short (the ZIP is then incomplete, which any unzip detects); before, it is an
   * ordinary error response.
   */
  private async perRequest(req: Request, res: Response, plan: () => Promise<PerRequestArchive>): Promise<void> {
    const limit = this.config.changesConcurrency ?? 2;
    if (this.building >= limit) throw new ArchiveChangesBusyError(limit);
    this.building++;
    try {
      const { etag, headers, filename, log, message, stream } = await plan();
      res.setHeader('ETag', etag);
      res.setHeader('Cache-Control', 'no-cache');
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      const matches = (req.headers['if-none-match'] ?? '').split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.replace(/^W\//, '') || tag.trim() === '*');
      if (matches) {
        res.status(304).end();
        return;
      }
      res.status(200);
      res.setHeader('Content-Type', 'application/zip');
      res.attachment(filename);
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const abort = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) abort.abort(new Error('The client went away'));
      });
      try {
        const result = await stream(abort.signal);
        this.logger.info({ ...log, ...result }, `${message} sent`);
      } catch (error) {
        if (abort.signal.aborted) return;
        if (!res.headersSent) {
          for (const header of ['Content-Disposition', 'Content-Type', 'ETag', ...Object.keys(headers)]) res.removeHeader(header);
          throw error;
        }
        this.logger.error({ err: error, ...log }, `${message} failed mid-response`);
        res.destroy(error as Error);
      }
    } finally {
      this.building--;
    }
  }

  /**
   * Sends the file with Express's `send`: conditional requests, single and multiple ranges,
   * `If-Range`, HEAD. The ETag is the archive's own (a SHA-256), set before `send` reads it.
   */
  private download(archive: ArchiveInfo, req: Request, res: Response): Promise<void> {
    res.setHeader('ETag', archive.etag);
    // `send` answers a request carrying `Cache-Control: no-cache` in full even when its validators
    // match (a cache's rule); an origin server evaluates If-None-Match / If-Modified-Since all the
    // same (RFC 9110 §13.2.1). Fetch clients add that header to every conditional request.
    delete req.headers['cache-control'];
    res.attachment(archive.name);
    return new Promise((done, fail) => {
      res.sendFile(resolve(archive.path), { etag: false, lastModified: true, acceptRanges: true, dotfiles: 'allow' }, (error?: Error & { status?: number; headers?: Record<string, string> }) => {
        if (!error) return done();
        if (res.headersSent) {
          // The client went away mid-download: nothing more to say.
          res.end();
          return done();
        }
        res.removeHeader('Content-Disposition');
        if (error.status === 416) {
          for (const [header, value] of Object.entries(error.headers ?? {})) res.setHeader(header, value);
          return fail(new HttpException('Range not satisfiable', 416));
        }
        if (error.status === 412) return fail(new HttpException('Precondition failed', 412));
        if (error.status === 404 || (error as NodeJS.ErrnoException).code === 'ENOENT') return fail(new ArchiveNotFoundError());
        return fail(error);
      });
    });
  }
}
