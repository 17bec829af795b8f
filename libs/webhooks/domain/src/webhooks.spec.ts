import { FixedClock, ImmediateUnitOfWork } from '@rc/shared-kernel/testing';
import { nextAttemptAfter, nextInStream, RETRY_DELAYS_SECONDS, type DeliveryView, type StreamEntry } from './delivery.js';
import { DeliveryLog, SecretSource, SubscriptionRepository, TargetPolicy, type NewSubscription } from './ports.js';
import { Subscription } from './subscription.js';
import { ChangeSubscription, DeleteSubscription, ListDeliveries, parseDeliveryId, RegisterSubscription, RetryDelivery, type WebhookDeps } from './use-cases.js';

class InMemorySubscriptions extends SubscriptionRepository {
  readonly rows = new Map<number, Subscription>();
  private nextId = 1;
  async create(f: NewSubscription): Promise<Subscription> {
    const s = Subscription.restore({ id: this.nextId++, url: f.url, events: f.events, description: f.description, enabled: f.enabled, secret: f.secret, createdAt: f.at, updatedAt: f.at });
    this.rows.set(s.state.id, s);
    return s;
  }
  async find(id: number) {
    return this.rows.get(id) ?? null;
  }
  async list() {
    return [...this.rows.values()];
  }
  async save(s: Subscription) {
    this.rows.set(s.state.id, s);
  }
  async delete(id: number) {
    return this.rows.delete(id);
  }
}

class InMemoryDeliveries extends DeliveryLog {
  readonly rows: DeliveryView[] = [];
  async list(subscriptionId: number, limit: number, offset: number) {
    return this.rows.filter((d) => d.subscriptionId === subscriptionId).slice(offset, offset + limit);
  }
  async find(subscriptionId: number, id: number) {
    return this.rows.find((d) => d.subscriptionId === subscriptionId && d.id === id) ?? null;
  }
  async retry(subscriptionId: number, id: number, at: Date) {
    const i = this.rows.findIndex((d) => d.subscriptionId === subscriptionId && d.id === id);
    this.rows[i] = { ...this.rows[i]!, status: 'pending', attempts: 0, nextAttemptAt: at };
  }
}

/** A stand-in for the real policy (an infra adapter that parses URLs and resolves names). */
class RefusingLocalNames extends TargetPolicy {
  async check(url: string) {
    const host = /^https?:\/\/([^/:]+)/.exec(url)?.[1];
    if (!host) return { refusal: 'url must be http or https' };
    return host === 'localhost' || host.startsWith('127.') ? { refusal: `${host} is a loopback address` } : { url };
  }
}

class CountingSecrets extends SecretSource {
  n = 0;
  newSecret() {
    return `whsec_secret${++this.n}`;
  }
}

function bed() {
  const subscriptions = new InMemorySubscriptions();
  const deliveries = new InMemoryDeliveries();
  const clock = new FixedClock(new Date('2026-11-26T10:00:00Z'));
  const deps: WebhookDeps = { subscriptions, deliveries, targets: new RefusingLocalNames(), secrets: new CountingSecrets(), clock, uow: new ImmediateUnitOfWork() };
  return { deps, subscriptions, deliveries, clock };
}

describe('registering a subscription', () => {
  it('keeps the checked URL, the known events in catalogue order, and a fresh secret', async () => {
    const { deps } = bed();
    const s = await new RegisterSubscription(deps).execute({ url: 'https://hooks.example.com/in', events: ['user.registered', 'guide.created', 'guide.created'] });
    expect(s.state).toMatchObject({ id: 1, url: 'https://hooks.example.com/in', events: ['guide.created', 'user.registered'], enabled: true, description: '', secret: 'whsec_secret1' });
  });

  it.each([
    [{ url: 'ftp://example.com/x', events: ['guide.created'] }, 'url', /http or https/],
    [{ url: 42, events: ['guide.created'] }, 'url', /url is required/],
    [{ url: `https://example.com/${'a'.repeat(2048)}`, events: ['guide.created'] }, 'url', /at most 2048/],
    [{ url: 'https://example.com/', events: ['guide.exploded'] }, 'events', /unknown event: guide.exploded/],
    [{ url: 'https://example.com/', events: [] }, 'events', /non-empty/],
    [{ url: 'https://example.com/', events: ['guide.created'], enabled: 'yes' }, 'enabled', /true or false/],
    [{ url: 'http://127.0.0.1:8080/hook', events: ['guide.created'] }, 'url', /loopback/],
    [{ url: 'http://localhost/hook', events: ['guide.created'] }, 'url', /loopback/],
  ])('refuses %j (a rule violation on %s)', async (input, field, message) => {
    const { deps, subscriptions } = bed();
    const error = await new RegisterSubscription(deps).execute(input).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'WEBHOOKS.INVALID_SUBSCRIPTION', violations: [{ field, message: expect.stringMatching(message) }] });
    expect(subscriptions.rows.size).toBe(0);
  });

  it('checks a changed URL against the address policy, and leaves the subscription unchanged when refused', async () => {
    const { deps, subscriptions } = bed();
    const s = await new RegisterSubscription(deps).execute({ url: 'https://example.com/a', events: ['guide.created'] });
    await expect(new ChangeSubscription(deps).execute(s.state.id, { url: 'http://localhost/' })).rejects.toMatchObject({ code: 'WEBHOOKS.INVALID_SUBSCRIPTION' });
    const changed = await new ChangeSubscription(deps).execute(s.state.id, { events: ['badge.awarded'], enabled: false });
    expect(changed.state).toMatchObject({ url: 'https://example.com/a', events: ['badge.awarded'], enabled: false });
    expect(changed.wants('badge.awarded')).toBe(false);
    expect(subscriptions.rows.get(s.state.id)!.state.url).toBe('https://example.com/a');
  });

  it('answers not found for an unknown subscription or delivery', async () => {
    const { deps } = bed();
    await expect(new ChangeSubscription(deps).execute(9, { enabled: false })).rejects.toMatchObject({ code: 'WEBHOOKS.SUBSCRIPTION_NOT_FOUND' });
    await expect(new DeleteSubscription(deps).execute(9)).rejects.toMatchObject({ code: 'WEBHOOKS.SUBSCRIPTION_NOT_FOUND' });
    await expect(new ListDeliveries(deps).execute(9, 10, 0)).rejects.toMatchObject({ code: 'WEBHOOKS.SUBSCRIPTION_NOT_FOUND' });
    const s = await new RegisterSubscription(deps).execute({ url: 'https://example.com/a', events: ['guide.created'] });
    for (const raw of ['abc', '0', '-1', '1.5', '1e3', '6f1c2a4e-0000-4000-8000-000000000000', '9'.repeat(16), '12']) {
      await expect(new RetryDelivery(deps).execute(s.state.id, raw)).rejects.toMatchObject({ code: 'WEBHOOKS.DELIVERY_NOT_FOUND' });
    }
  });

  it('retries a given-up delivery: pending again, due now, attempts counted afresh', async () => {
    const { deps, deliveries, clock } = bed();
    const s = await new RegisterSubscription(deps).execute({ url: 'https://example.com/a', events: ['guide.created'] });
    const id = 7;
    deliveries.rows.push({ id, messageId: '6f1c2a4e-1111-4000-8000-000000000000', subscriptionId: s.state.id, eventType: 'guide.created', resource: 'guide:1', status: 'failed', attempts: 8, nextAttemptAt: null, lastAttemptAt: null, lastResponseStatus: 500, lastError: null, deliveredAt: null, createdAt: clock.now() });
    expect(await new RetryDelivery(deps).execute(s.state.id, '7')).toMatchObject({ id: 7, status: 'pending', attempts: 0, nextAttemptAt: clock.now() });
    expect(parseDeliveryId('123456789012345')).toBe(123456789012345);
  });
});

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up: a little over a day, eight attempts', () => {
    const t0 = new Date('2026-11-26T00:00:00Z');
    const delays: number[] = [];
    for (let attempts = 1; ; attempts++) {
      const next = nextAttemptAfter(attempts, t0);
      if (!next) break;
      delays.push((next.getTime() - t0.getTime()) / 1000);
    }
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    const total = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(24 * 3600);
    expect(total).toBeLessThan(30 * 3600);
  });
});

describe('the order within a stream (one resource, one subscription)', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  const later = new Date('2026-11-26T10:05:00Z');
  const e = (seq: number, status: StreamEntry['status'], nextAttemptAt: Date | null = now): StreamEntry => ({ id: seq * 10, seq, status, nextAttemptAt });

  it('sends the earliest pending event first, whatever order the rows come in', () => {
    expect(nextInStream([e(7, 'pending'), e(3, 'pending'), e(5, 'pending')], now)?.seq).toBe(3);
  });

  it('holds later events back while the earliest waits for its retry', () => {
    expect(nextInStream([e(3, 'pending', later), e(5, 'pending')], now)).toBeNull();
  });

  it('skips delivered and given-up events', () => {
    expect(nextInStream([e(1, 'delivered'), e(2, 'failed', null), e(4, 'pending')], now)?.seq).toBe(4);
    expect(nextInStream([e(1, 'delivered')], now)).toBeNull();
  });
});
