import autocannon from 'autocannon';

export interface RequestSpec {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** What one connection sends: `next` is called for each request, `onResponse` with its answer (one request in flight per connection). */
export interface ConnectionDriver {
  next(): RequestSpec;
  onResponse?(status: number, body: string, headers: Record<string, string | string[]>): void;
}

export interface LoadRun {
  /** `http://127.0.0.1:PORT`; with several, connection i sends to origin i mod n. */
  readonly origin: string | readonly string[];
  readonly connections: number;
  readonly seconds: number;
  readonly driver: (connection: number) => ConnectionDriver;
  /** Statuses that count as success. */
  readonly expected: readonly number[];
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  /** Latency percentiles over every response (ms). */
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly statusCodes: Record<string, number>;
  /** Connection errors and timeouts. */
  readonly errors: number;
  /** Responses with a status outside `expected`. */
  readonly unexpected: number;
  readonly megabytes: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** Drives the server with autocannon for `seconds`, one driver per connection; latencies of every status are kept. */
export async function runLoad(run: LoadRun): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let bytes = 0;
  let unexpected = 0;
  const statusCodes: Record<string, number> = {};
  const expected = new Set(run.expected);
  const started = process.hrtime.bigint();
  const origins = typeof run.origin === 'string' ? [run.origin] : run.origin;
  // One autocannon instance per origin, each with its share of the connections; the drivers are
  // numbered across all of them, so connection i sends to origin i mod n.
  const instances = origins.map((url, index) => {
    let next = index;
    let finish: (result: autocannon.Result) => void = () => undefined;
    let fail: (error: unknown) => void = () => undefined;
    const done = new Promise<autocannon.Result>((ok, ko) => {
      finish = ok;
      fail = ko;
    });
    const instance = autocannon(
      {
        url,
        connections: Math.ceil((run.connections - index) / origins.length),
        duration: run.seconds,
        timeout: 30,
        setupClient(client) {
          const driver = run.driver(next);
          next += origins.length;
          client.setRequests([
            {
              setupRequest(request) {
                const spec = driver.next();
                return { ...request, method: spec.method, path: spec.path, headers: spec.headers ?? {}, body: spec.body ?? '' };
              },
              onResponse(status, body, _context, headers) {
                driver.onResponse?.(status, body, (headers ?? {}) as Record<string, string | string[]>);
              },
            },
          ]);
        },
      },
      (error, result) => (error ? fail(error) : finish(result)),
    );
    instance.on('response', (_client, status, resBytes, responseTime) => {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
      bytes += resBytes;
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (!expected.has(status)) unexpected++;
    });
    return done;
  });
  const results = await Promise.all(instances);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = latencies.slice(0, count).sort();
  return {
    requests: count,
    seconds: round(seconds, 2),
    rps: round(count / seconds, 0),
    p50: round(percentile(sorted, 50), 2),
    p95: round(percentile(sorted, 95), 2),
    p99: round(percentile(sorted, 99), 2),
    max: round(percentile(sorted, 100), 2),
    statusCodes,
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    unexpected,
    megabytes: round(bytes / 1e6, 1),
  };
}
