import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'rc:metrics-request';
const RESULT = 'rc:metrics-result';

interface MetricsRequest {
  readonly type: typeof REQUEST;
  readonly id: number;
}

interface MetricsResult {
  readonly type: typeof RESULT;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

/**
 * In the primary of a cluster (`WEB_CONCURRENCY` > 1): a worker asked for the metrics asks here,
 * and gets every worker's metrics aggregated by prom-client (counters and histograms summed, each
 * gauge as its metric says), so one scrape of the port sees the whole instance whichever worker
 * answers it.
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<MetricsRequest> | null) => {
    if (message?.type !== REQUEST || typeof message.id !== 'number') return;
    const id = message.id;
    const reply = (result: Omit<MetricsResult, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: RESULT, id, ...result } satisfies MetricsResult, (error: Error | null) => void error);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/**
 * In a worker of the cluster: the registries the primary aggregates, and the function that asks
 * it for the aggregate.
 */
export function clusterMetricsClient(registries: Registry[], timeoutMs = 10_000): () => Promise<string> {
  // Constructed in a worker, the aggregator answers the primary's requests with these registries.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries(registries);
  let next = 0;
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  process.on('message', (message: Partial<MetricsResult> | null) => {
    if (message?.type !== RESULT || typeof message.id !== 'number') return;
    const request = pending.get(message.id);
    if (!request) return;
    pending.delete(message.id);
    clearTimeout(request.timer);
    if (typeof message.text === 'string') request.resolve(message.text);
    else request.reject(new Error(`the cluster's metrics could not be gathered: ${message.error ?? 'no answer'}`));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the cluster's metrics were not gathered within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
      process.send!({ type: REQUEST, id } satisfies MetricsRequest);
    });
}
