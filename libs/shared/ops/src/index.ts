// Operability: health probes, Prometheus metrics, request context and log redaction, cluster
// metrics and the on-demand OpenTelemetry start (telemetry-sdk.ts is only ever imported
// dynamically, by startTelemetry: it is not exported here).
export * from './cluster-metrics.js';
export * from './health.js';
export * from './log-redaction.js';
export * from './metrics.js';
export * from './ops-endpoints.js';
export * from './request-context.js';
export * from './request-metrics.js';
export * from './telemetry.js';
