import { Global, Module, type OnModuleDestroy } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { factory, LOGGER } from '@rc/shared-http';
import { JobQueue } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { BackgroundJobs } from '@rc/shared-jobs';

/** The background job queue, for every context (`JobQueue`), started by `createApi` after the migrations. */
@Global()
@Module({
  providers: [
    factory(BackgroundJobs, (orm: MikroORM, logger: Logger) => new BackgroundJobs(orm, logger), [MikroORM, LOGGER]),
    { provide: JobQueue, useExisting: BackgroundJobs },
  ],
  exports: [BackgroundJobs, JobQueue],
})
export class JobsModule implements OnModuleDestroy {
  constructor(private readonly jobs: BackgroundJobs) {}

  /** Before the ORM's pool closes: running jobs finish (or are retried elsewhere). */
  async onModuleDestroy(): Promise<void> {
    await this.jobs.stop();
  }
}
