// A worker in a process of its own, for the crash test: it takes a job, says so, and never
// finishes it; the test then kills the process with SIGKILL.
import { PgBossJobQueue } from '../pg-boss-job-queue.js';

const [url, name] = process.argv.slice(2);
const queue = await PgBossJobQueue.start({ connectionString: url!, heartbeatSeconds: 10, superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5, onError: () => undefined });
await queue.work(name!, async (payload, run) => {
  process.stdout.write(`started ${JSON.stringify(payload)} attempt ${run.attempt}\n`);
  await new Promise(() => undefined);
});
process.stdout.write('ready\n');
