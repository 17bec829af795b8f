import { Global, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { factory, LOGGER } from '@rc/shared-http';
import { Clock, IntegrationEvents, JobQueue, UnitOfWork } from '@rc/shared-kernel';
import {
  ChangeSubscription,
  DeleteSubscription,
  GetSubscription,
  ListDeliveries,
  ListSubscriptions,
  RegisterSubscription,
  RetryDelivery,
  type WebhookDeps,
} from '@rc/webhooks-domain';
import {
  MikroOrmDeliveryLog,
  MikroOrmIntegrationEvents,
  MikroOrmSubscriptions,
  PublicTargetPolicy,
  RandomSecrets,
  WebhookAgents,
  WebhookDispatcher,
  type WebhooksConfig,
} from '@rc/webhooks-infra-mikro-orm';
import type { Logger } from 'pino';
import { WebhookJobs } from './webhook-jobs.js';
import { WebhooksController } from './webhooks.controller.js';

const DEPS = Symbol('WebhookDeps');
const USE_CASES = [RegisterSubscription, ListSubscriptions, GetSubscription, ChangeSubscription, DeleteSubscription, ListDeliveries, RetryDelivery];

/**
 * The webhooks context's HTTP adapter: the admins' subscriptions and their deliveries, the
 * deliveries' jobs, and (global) the `IntegrationEvents` every context publishes to, which writes
 * the webhooks' outbox in the publisher's transaction.
 */
@Global()
@Module({})
export class WebhooksApiModule implements OnModuleDestroy, OnApplicationShutdown {
  constructor(private readonly jobs: WebhookJobs) {}

  static register(config: WebhooksConfig): DynamicModule {
    return {
      module: WebhooksApiModule,
      controllers: [WebhooksController],
      providers: [
        factory(IntegrationEvents, (orm: MikroORM) => new MikroOrmIntegrationEvents(orm.em), [MikroORM]),
        {
          provide: DEPS,
          inject: [MikroORM, Clock, UnitOfWork],
          useFactory: (orm: MikroORM, clock: Clock, uow: UnitOfWork): WebhookDeps => ({
            subscriptions: new MikroOrmSubscriptions(orm.em),
            deliveries: new MikroOrmDeliveryLog(orm.em),
            targets: new PublicTargetPolicy(config.allowPrivateTargets),
            secrets: new RandomSecrets(),
            clock,
            uow,
          }),
        },
        ...USE_CASES.map((UseCase) => ({ provide: UseCase, inject: [DEPS], useFactory: (deps: WebhookDeps) => new UseCase(deps) })),
        factory(
          WebhookJobs,
          (orm: MikroORM, jobs: JobQueue, clock: Clock, logger: Logger) => {
            const agents = new WebhookAgents();
            const sender = { timeoutMs: config.timeoutSeconds * 1000, allowPrivate: config.allowPrivateTargets, agents };
            return new WebhookJobs(orm, new WebhookDispatcher(orm.em, jobs, clock, sender), config, logger, agents);
          },
          [MikroORM, JobQueue, Clock, LOGGER],
        ),
      ],
      exports: [IntegrationEvents, WebhookJobs],
    };
  }

  /** Before the pool closes: the sweep in flight finishes. */
  async onModuleDestroy(): Promise<void> {
    await this.jobs.stop();
  }

  /** After every module's destroy hook (the job queue's workers among them): no delivery is under way. */
  onApplicationShutdown(): void {
    this.jobs.closeConnections();
  }
}
