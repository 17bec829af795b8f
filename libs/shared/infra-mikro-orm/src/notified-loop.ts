import { PgListener } from './pg-listener.js';

/** Where a loop reports what went wrong (a pino logger fits). */
export interface LoopLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface NotifiedLoopOptions {
  readonly url: string;
  /** The channel whose NOTIFY (sent when a transaction that has work for the loop commits) wakes it. */
  readonly channel: string;
  /** How long to wait for a NOTIFY before running a round anyway (the fallback for a lost notification). */
  readonly idleMs: number;
  /** One round of work; `true` when more is already waiting (the next round runs at once). */
  readonly round: () => Promise<boolean>;
  readonly logger: LoopLogger;
  /** The `context` field of its log lines. */
  readonly context: string;
  /** The log line of a round that threw (the loop carries on). */
  readonly failure: string;
}

/**
 * A background loop over work that a database commit announces: a round now, after every NOTIFY on
 * the channel (and after every reconnection of the listener, since notifications sent meanwhile are
 * lost), and every `idleMs` anyway. A notification arriving during a round runs another one right
 * after; a round that throws is logged and the loop waits for the next wake-up. `stop` lets the round
 * in flight finish.
 */
export class NotifiedLoop {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private nudged = false;
  private listener: PgListener | null = null;

  constructor(private readonly options: NotifiedLoopOptions) {}

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const { url, channel, logger, context } = this.options;
    this.listener = new PgListener({
      url,
      channels: [channel],
      onNotify: () => this.nudge(),
      onConnect: () => this.nudge(),
      onError: (error) => logger.warn({ err: error, context }, `${channel} listener connection lost; reconnecting`),
    });
    await this.listener.start();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
    this.loop = null;
    await this.listener?.stop();
    this.listener = null;
  }

  /** Runs a round as soon as the one in flight (if any) is done. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.nudged = false;
      let more = false;
      try {
        more = await this.options.round();
      } catch (error) {
        this.options.logger.error({ err: error, context: this.options.context }, this.options.failure);
      }
      if (!this.running) break;
      if (more || this.nudged) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.idleMs);
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
