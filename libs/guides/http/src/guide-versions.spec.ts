import { GuideVersions, type GuideVersionRow, type GuideVersionSource } from './guide-versions.js';

/** A database of versions whose NOTIFY is delivered when the test says so (as a listener receives it later). */
class FakeSource implements GuideVersionSource {
  /** The lookup statement (the read model's, in the API). */
  readonly rows = new Map<number, GuideVersionRow>();
  readonly sent: string[] = [];
  lookups = 0;
  /** Lookups in flight wait for this when set. */
  gate: Promise<void> | null = null;

  async lookup(guideId: number): Promise<GuideVersionRow | null> {
    this.lookups++;
    const row = this.rows.get(guideId) ?? null;
    if (this.gate) await this.gate;
    return row;
  }

  async notify(payload: string): Promise<void> {
    this.sent.push(payload);
  }
}

describe('GuideVersions', () => {
  let source: FakeSource;
  let versions: GuideVersions;
  /** A read's version: remembered, or looked up by the source. */
  const versionOf = async (guideId: number) => (await versions.version(guideId, () => source.lookup(guideId))).version;

  beforeEach(() => {
    source = new FakeSource();
    source.rows.set(1, { version: '10.0', prerequisites: [] });
    source.rows.set(2, { version: '20.10', prerequisites: [1] });
    versions = new GuideVersions(source, { coherence: 'notify', barrierTimeoutMs: 50 });
  });

  it('looks every version up until the listener is connected', async () => {
    expect(await versionOf(1)).toBe('10.0');
    expect(await versionOf(1)).toBe('10.0');
    expect(source.lookups).toBe(2);
    expect(versions.peek(1)).toBeUndefined();
  });

  it('remembers versions (and unknown guides) while listening, and forgets a guide when it is announced', async () => {
    versions.connected();
    expect(await versionOf(1)).toBe('10.0');
    expect(await versionOf(1)).toBe('10.0');
    expect(await versionOf(99)).toBeNull();
    expect(await versionOf(99)).toBeNull();
    expect(source.lookups).toBe(2);
    source.rows.set(1, { version: '11.0', prerequisites: [] });
    versions.notified('1');
    expect(versions.peek(1)).toBeUndefined();
    expect(await versionOf(1)).toBe('11.0');
    source.rows.set(99, { version: '30.0', prerequisites: [] });
    versions.notified('99');
    expect(await versionOf(99)).toBe('30.0');
  });

  it('forgets a remembered version older than a revision a client has seen, before its announcement arrives', async () => {
    versions.connected();
    expect(await versionOf(1)).toBe('10.0');
    // Committed and answered elsewhere; the announcement has not reached this instance yet.
    source.rows.set(1, { version: '12.0', prerequisites: [] });
    versions.forgetOlderThan(1, 10);
    expect(versions.peek(1)).toBe('10.0');
    versions.forgetOlderThan(1, 12);
    expect(versions.peek(1)).toBeUndefined();
    expect(await versionOf(1)).toBe('12.0');
    // Not public (null) and unknown guides stay as they are.
    expect(await versionOf(99)).toBeNull();
    versions.forgetOlderThan(99, 5);
    expect(versions.peek(99)).toBeNull();
  });

  it('forgets the guides whose version covers an announced prerequisite', async () => {
    versions.connected();
    await versionOf(2);
    await versionOf(1);
    versions.notified('1');
    expect(versions.peek(2)).toBeUndefined();
    expect(versions.peek(1)).toBeUndefined();
  });

  it('does not remember a lookup during which the guide or a prerequisite was announced', async () => {
    versions.connected();
    let open!: () => void;
    source.gate = new Promise((resolve) => (open = resolve));
    const pending = versionOf(2);
    versions.notified('1'); // committed after the lookup read its snapshot, heard before it returned
    open();
    expect(await pending).toBe('20.10');
    expect(versions.peek(2)).toBeUndefined();
    source.gate = null;
    await versionOf(2);
    expect(versions.peek(2)).toBe('20.10');
  });

  it('forgets everything when the listener goes or comes back (notifications may have been missed)', async () => {
    versions.connected();
    await versionOf(1);
    versions.disconnected();
    expect(versions.peek(1)).toBeUndefined();
    await versionOf(1);
    expect(versions.remembered).toBe(0);
    versions.connected();
    expect(versions.remembered).toBe(0);
    await versionOf(1);
    expect(versions.peek(1)).toBe('10.0');
  });

  it('never remembers in lookup mode', async () => {
    versions = new GuideVersions(source, { coherence: 'lookup' });
    versions.connected();
    await versionOf(1);
    await versionOf(1);
    expect(source.lookups).toBe(2);
    expect(versions.live).toBe(false);
  });

  it('barrier: barriers called while a marker is on its way share the next one, sent once that one is heard; none joins a marker already sent', async () => {
    versions.connected();
    const settled: string[] = [];
    const first = versions.barrier().then(() => void settled.push('first'));
    await Promise.resolve();
    expect(source.sent).toHaveLength(1);
    // Called after the first marker was sent: their changes may have committed after it.
    const second = versions.barrier().then(() => void settled.push('second'));
    const third = versions.barrier().then(() => void settled.push('third'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.sent).toHaveLength(1);
    versions.notified(source.sent[0]!);
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual(['first']);
    // One marker for both, sent after the first was heard.
    expect(source.sent).toHaveLength(2);
    versions.notified(source.sent[1]!);
    await Promise.all([second, third]);
    expect(settled).toEqual(['first', 'second', 'third']);
    expect(versions.markersSent).toBe(2);
    expect(versions.live).toBe(true);
    // Nothing on its way: the next barrier sends its own at once.
    const fourth = versions.barrier();
    await Promise.resolve();
    expect(source.sent).toHaveLength(3);
    versions.notified(source.sent[2]!);
    await fourth;
  });

  it('barrier: resolves when its marker is heard; a marker never heard suspends remembering until a heartbeat gets through', async () => {
    versions.connected();
    await versionOf(1);
    const barrier = versions.barrier();
    await Promise.resolve();
    expect(source.sent).toHaveLength(1);
    versions.notified(source.sent[0]!);
    await barrier;
    expect(versions.live).toBe(true);
    expect(versions.peek(1)).toBe('10.0');

    await versions.barrier(); // nobody delivers the marker: the listener went silent
    expect(versions.live).toBe(false);
    expect(versions.peek(1)).toBeUndefined();
    await versionOf(1);
    expect(versions.remembered).toBe(0);

    const heartbeat = versions.heartbeat(true);
    await Promise.resolve();
    versions.notified(source.sent.at(-1)!);
    await heartbeat;
    expect(versions.live).toBe(true);
    await versionOf(1);
    expect(versions.peek(1)).toBe('10.0');
  });

  it('tells whether users were announced since a mark, only while listening, and resets on listener changes', () => {
    const changed: number[] = [];
    let resets = 0;
    versions.onUserChanged = (id) => changed.push(id);
    versions.onReset = () => resets++;
    const early = versions.sequence;
    expect(versions.usersUnchangedSince(early, [1])).toBe(false); // not listening
    versions.connected();
    expect(resets).toBe(1);
    expect(versions.usersUnchangedSince(early, [1])).toBe(false); // the mark predates the connection
    const mark = versions.sequence;
    expect(versions.usersUnchangedSince(mark, [1, 2])).toBe(true);
    versions.userNotified('2');
    expect(changed).toEqual([2]);
    expect(versions.usersUnchangedSince(mark, [1])).toBe(true);
    expect(versions.usersUnchangedSince(mark, [1, 2])).toBe(false);
    expect(versions.usersUnchangedSince(versions.sequence, [2])).toBe(true);
    versions.userNotified('not a number');
    expect(changed).toEqual([2]);
    const later = versions.sequence;
    versions.disconnected();
    expect(resets).toBe(2);
    expect(versions.usersUnchangedSince(later, [1])).toBe(false);
  });

  it('keeps at most maxEntries versions, oldest first out', async () => {
    versions = new GuideVersions(source, { coherence: 'notify', maxEntries: 1 });
    versions.connected();
    await versionOf(1);
    await versionOf(2);
    expect(versions.peek(1)).toBeUndefined();
    expect(versions.peek(2)).toBe('20.10');
  });
});
