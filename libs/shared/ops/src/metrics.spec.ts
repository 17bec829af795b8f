import { ApiMetrics, sampled, type CacheCounters } from './metrics.js';

describe('sampled', () => {
  it('reads at most once per period, shares a read in flight, and does not keep a failed one', async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const read = sampled(
      async () => {
        reads++;
        if (fail) throw new Error('down');
        return reads;
      },
      5000,
      () => now,
    );
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    now = 4999;
    expect(await read()).toBe(1);
    now = 5000;
    fail = true;
    await expect(read()).rejects.toThrow('down');
    fail = false;
    expect(await read()).toBe(3);
  });
});

describe('ApiMetrics', () => {
  it('exposes request durations, the pool, cache counts and the backlog as the sources say at each scrape', async () => {
    const guideBody: { hits: number; misses: number } = { hits: 0, misses: 0 };
    const counters: CacheCounters = guideBody;
    const metrics = new ApiMetrics({
      pool: async () => ({ total: 4, idle: 3, waiting: 0, max: 10 }),
      caches: () => [{ name: 'guide_body', counters }],
      outbox: async () => ({ pending: 2, failing: 1, oldestSeconds: 12.5 }),
    });
    metrics.observe('GET', '/guides/:guideid', '200', 0.002);
    guideBody.hits = 7;
    guideBody.misses = 3;
    const text = await metrics.text();
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/guides/:guideid",status="200"} 1');
    expect(text).toContain('cache_requests_total{cache="guide_body",result="hit"} 7');
    expect(text).toContain('cache_requests_total{cache="guide_body",result="miss"} 3');
    expect(text).toContain('db_pool_connections 4');
    expect(text).toContain('db_pool_idle_connections 3');
    expect(text).toContain('guide_events_pending 2');
    expect(text).toContain('guide_events_oldest_pending_age_seconds 12.5');
    expect(text).toContain('process_cpu_user_seconds_total');
    guideBody.hits = 9;
    expect(await metrics.text()).toContain('cache_requests_total{cache="guide_body",result="hit"} 9');
    expect(metrics.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });
});
