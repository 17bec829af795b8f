import type { Logger } from 'pino';

type Env = Record<string, string | undefined>;

/** A started tracing SDK: flushes and stops on shutdown. */
export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Whether the standard OpenTelemetry variables ask for traces: an exporter named in
 * `OTEL_TRACES_EXPORTER` (other than `none`), or an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); never with `OTEL_SDK_DISABLED=true`.
 */
export function tracingRequested(env: Env): boolean {
  const set = (name: string) => (env[name] ?? '').trim();
  if (set('OTEL_SDK_DISABLED').toLowerCase() === 'true') return false;
  const exporters = set('OTEL_TRACES_EXPORTER');
  if (exporters) return exporters.split(',').some((e) => e.trim() !== '' && e.trim().toLowerCase() !== 'none');
  return set('OTEL_EXPORTER_OTLP_ENDPOINT') !== '' || set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== '';
}

let running: Telemetry | null = null;

/**
 * Starts tracing (HTTP server and client, PostgreSQL) when the environment asks for it. Otherwise
 * nothing of the OpenTelemetry SDK is even loaded: the SDK module is imported here, dynamically.
 */
export async function startTelemetry(logger: Logger, env: Env = process.env, load: () => Promise<{ startTracing(logger: Logger, env: Env): Telemetry }> = () => import('./telemetry-sdk.js')): Promise<Telemetry | null> {
  if (running || !tracingRequested(env)) return running;
  const { startTracing } = await load();
  running = startTracing(logger, env);
  return running;
}

/** Flushes the spans not exported yet and stops tracing (no-op when it was not started). */
export async function stopTelemetry(): Promise<void> {
  const telemetry = running;
  running = null;
  await telemetry?.shutdown();
}
