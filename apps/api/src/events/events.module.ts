import { Module, type DynamicModule, type OnModuleDestroy } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { HandleGuideEvent } from '@rc/reputation-domain';
import { factory, LOGGER } from '@rc/shared-http';
import { Clock, UnitOfWork } from '@rc/shared-kernel';
import type { Logger } from 'pino';
import { GuideEventRelay } from './guide-event-relay.js';

/**
 * The delivery of the guides context's events to the reputation context: it reads the guides'
 * outbox and calls reputation's handler, so it belongs to neither and lives in the app.
 */
@Module({})
export class EventsModule implements OnModuleDestroy {
  constructor(private readonly relay: GuideEventRelay) {}

  /** `reputation`: the registered reputation module, whose HandleGuideEvent the relay calls. */
  static register(reputation: DynamicModule): DynamicModule {
    return {
      module: EventsModule,
      imports: [reputation],
      providers: [
        factory(
          GuideEventRelay,
          (orm: MikroORM, uow: UnitOfWork, handler: HandleGuideEvent, clock: Clock, logger: Logger) => new GuideEventRelay(orm, uow, handler, clock, logger),
          [MikroORM, UnitOfWork, HandleGuideEvent, Clock, LOGGER],
        ),
      ],
      exports: [GuideEventRelay],
    };
  }

  /** Before the pool closes: the batch in flight commits or rolls back whole. */
  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}
