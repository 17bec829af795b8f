import { resolve } from 'node:path';
import { Controller, Get, HttpException, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { NotFoundError } from '@rc/shared-kernel';
import type { Request, Response } from 'express';
import { Endpoint } from '@rc/shared-http';
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
    latest,
  };
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
  constructor(
    private readonly store: ArchiveStore,
    private readonly scheduler: ArchiveScheduler,
    @Inject(ARCHIVE_SETTINGS) private readonly config: ArchiveSettings,
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
    summary: 'Download the latest offline archive',
    description:
      'A ZIP of oManual documents: `manifest.xml` (the index), one `<Title>-<id>/guide.xml` per public guide, one `<Title>-<id>.xml` per category, ' +
      'and the pictures they show under `media/` (thumbnail, standard, medium and large sizes; the documents point at them by relative path).',
    errors: [404], notFound: 'Archive not found: GET /archives lists the archives kept',
  })
  @ApiProduces('application/zip')
  @ApiResponse({ status: 200, ...DOWNLOAD })
  @ApiResponse({ status: 206, description: 'The range asked for' })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match or If-Modified-Since)' })
  async latest(@Req() req: Request, @Res() res: Response): Promise<void> {
    const archive = await this.store.latest();
    if (!archive) throw new ArchiveNotBuiltError(this.scheduler.schedule());
    await this.download(archive, req, res);
  }

  @Get('omanual/:name')
  @Endpoint({ summary: 'Download a kept archive by name (as GET /archives lists them)', errors: [404], notFound: 'Archive not found: GET /archives lists the archives kept' })
  @ApiParam({ name: 'name', example: 'omanual-20261122T101500123Z.zip' })
  @ApiProduces('application/zip')
  @ApiResponse({ status: 200, ...DOWNLOAD })
  async named(@Param('name') name: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const archive = await this.store.find(name);
    if (!archive) throw new ArchiveNotFoundError();
    await this.download(archive, req, res);
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
