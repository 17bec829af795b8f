import { Module, type DynamicModule } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { BadgeCatalogue, GetUserBadges, HandleGuideEvent, ReputationQueries, ReputationStore } from '@rc/reputation-domain';
import { MikroOrmBadgeCatalogue, MikroOrmReputationQueries, MikroOrmReputationStore } from '@rc/reputation-infra-mikro-orm';
import { Clock, IntegrationEvents } from '@rc/shared-kernel';
import { factory } from '@rc/shared-http';
import { BadgesController } from './badges.controller.js';

/**
 * The reputation context's HTTP adapter. It also provides the handler of the guides context's
 * events, which the app's relay delivers.
 */
@Module({})
export class ReputationApiModule {
  static register(): DynamicModule {
    const em = (orm: MikroORM) => orm.em;
    return {
      module: ReputationApiModule,
      controllers: [BadgesController],
      providers: [
        factory(ReputationStore, (orm: MikroORM) => new MikroOrmReputationStore(em(orm)), [MikroORM]),
        factory(BadgeCatalogue, (orm: MikroORM) => new MikroOrmBadgeCatalogue(em(orm)), [MikroORM]),
        factory(ReputationQueries, (orm: MikroORM) => new MikroOrmReputationQueries(em(orm)), [MikroORM]),
        factory(HandleGuideEvent, (s: ReputationStore, b: BadgeCatalogue, c: Clock, e: IntegrationEvents) => new HandleGuideEvent(s, b, c, e), [ReputationStore, BadgeCatalogue, Clock, IntegrationEvents]),
        factory(GetUserBadges, (q: ReputationQueries) => new GetUserBadges(q), [ReputationQueries]),
      ],
      exports: [HandleGuideEvent, ReputationQueries],
    };
  }
}
