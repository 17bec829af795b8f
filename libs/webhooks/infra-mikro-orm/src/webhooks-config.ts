import { envReader, type Env } from '@rc/shared-infra-mikro-orm';

export interface WebhooksConfig {
  /** Targets on private or loopback addresses are allowed (tests, closed networks). */
  readonly allowPrivateTargets: boolean;
  /** Longest one delivery attempt may take. */
  readonly timeoutSeconds: number;
  /** How often an instance looks for due retries and unsent events (besides being woken at once by new ones). */
  readonly sweepSeconds: number;
  /** Deliveries this process sends at once (0: none, another instance sends them). */
  readonly workerConcurrency: number;
}

/** `WEBHOOK_ALLOW_PRIVATE_TARGETS` (false), `WEBHOOK_TIMEOUT_SECONDS` (10), `WEBHOOK_SWEEP_SECONDS` (10), `WEBHOOK_WORKER_CONCURRENCY` (4). */
export function readWebhooksConfig(env: Env, problems: string[]): WebhooksConfig {
  const { bool, int } = envReader(env, problems);
  return {
    allowPrivateTargets: bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    timeoutSeconds: int('WEBHOOK_TIMEOUT_SECONDS', 10, 1, 60),
    sweepSeconds: int('WEBHOOK_SWEEP_SECONDS', 10, 1, 3600),
    workerConcurrency: int('WEBHOOK_WORKER_CONCURRENCY', 4, 0, 64),
  };
}
