// The event relay alone, in a process of its own, so that a test can kill it with SIGKILL in the
// middle of a delivery. Run with tsx: relay-process.ts <database url> <batch size>.
// It prints `handled <n>` after each event it handles (before the batch commits) and `drained`
// when nothing is left. No Nest here: the relay is built from its parts.
import { MikroORM } from '@mikro-orm/postgresql';
import { HandleGuideEvent } from '@rc/reputation-domain';
import { MikroOrmBadgeCatalogue, MikroOrmReputationStore } from '@rc/reputation-infra-mikro-orm';
import { MikroOrmUnitOfWork, ormConfig } from '@rc/shared-infra-mikro-orm';
import { SystemClock } from '@rc/shared-kernel';
import { MikroOrmIntegrationEvents } from '@rc/webhooks-infra-mikro-orm';
import { pino } from 'pino';
import { allMigrations, allSchemas } from '../../src/composition.js';
import { GuideEventRelay } from '../../src/events/guide-event-relay.js';

const [url, batch] = process.argv.slice(2);
const orm = await MikroORM.init(ormConfig({ clientUrl: url!, entities: allSchemas, migrations: allMigrations }));
const clock = new SystemClock();
const inner = new HandleGuideEvent(new MikroOrmReputationStore(orm.em), new MikroOrmBadgeCatalogue(orm.em), clock, new MikroOrmIntegrationEvents(orm.em));
let handled = 0;
const handler = {
  async execute(...args: Parameters<HandleGuideEvent['execute']>) {
    const result = await inner.execute(...args);
    process.stdout.write(`handled ${++handled}\n`);
    // Leave the parent time to kill this process while the batch's transaction is open.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return result;
  },
} as HandleGuideEvent;
const relay = new GuideEventRelay(orm, new MikroOrmUnitOfWork(orm.em), handler, clock, pino({ level: 'silent' }), { batchSize: Number(batch), pollMs: 1000, retryBaseMs: 1000 });
await relay.drain();
process.stdout.write('drained\n');
await orm.close();
