import { Module, type DynamicModule, type OnModuleDestroy } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { BadgeCatalogue, GetUserBadges, HandleGuideEvent, ReputationQueries, ReputationStore } from '@rc/reputation-domain';
import { MikroOrmBadgeCatalogue, MikroOrmReputationQueries, MikroOrmReputationStore } from '@rc/reputation-infra-mikro-orm';
import { Clock, UnitOfWork } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { factory, LOGGER } from '../core.module.js';
import { GuideEventRelay } from '../events/guide-event-relay.js';
import { BadgesController } from './badges.controller.js';

/** The reputation context's HTTP adapter, and the delivery of the guides context's events to it. */
@Module({})
export class ReputationApiModule implements OnModuleDestroy {
  constructor(private readonly relay: GuideEventRelay) {}

  static register(): DynamicModule {
    const em = (orm: MikroORM) => orm.em;
    return {
      module: ReputationApiModule,
      controllers: [BadgesController],
      providers: [
        factory(ReputationStore, (orm: MikroORM) => new MikroOrmReputationStore(em(orm)), [MikroORM]),
        factory(BadgeCatalogue, (orm: MikroORM) => new MikroOrmBadgeCatalogue(em(orm)), [MikroORM]),
        factory(ReputationQueries, (orm: MikroORM) => new MikroOrmReputationQueries(em(orm)), [MikroORM]),
        factory(HandleGuideEvent, (s: ReputationStore, b: BadgeCatalogue, c: Clock) => new HandleGuideEvent(s, b, c), [ReputationStore, BadgeCatalogue, Clock]),
        factory(GetUserBadges, (q: ReputationQueries) => new GetUserBadges(q), [ReputationQueries]),
        factory(
          GuideEventRelay,
          (orm: MikroORM, uow: UnitOfWork, handler: HandleGuideEvent, clock: Clock, logger: Logger) => new GuideEventRelay(orm, uow, handler, clock, logger),
          [MikroORM, UnitOfWork, HandleGuideEvent, Clock, LOGGER],
        ),
      ],
      exports: [GuideEventRelay, ReputationQueries],
    };
  }

  /** Before the pool closes: the batch in flight commits or rolls back whole. */
  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}
