import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { startTelemetry, stopTelemetry, tracingRequested } from '@rc/shared-ops';

describe('tracingRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'api', OTEL_RESOURCE_ATTRIBUTES: 'a=b' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none,zipkin' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' }, false],
  ])('%p → %p', (env, expected) => {
    expect(tracingRequested(env)).toBe(expected);
  });
});

describe('startTelemetry', () => {
  const logger = pino({ level: 'silent' });

  it('loads nothing when no OTEL_* variable asks for traces', async () => {
    let loaded = 0;
    const load = async () => {
      loaded++;
      return { startTracing: () => ({ shutdown: async () => undefined }) };
    };
    expect(await startTelemetry(logger, { OTEL_SERVICE_NAME: 'x' }, load)).toBeNull();
    expect(loaded).toBe(0);
  });

  it('loads and starts the SDK once when asked, and stops it', async () => {
    let started = 0;
    let stopped = 0;
    const load = async () => ({
      startTracing: () => {
        started++;
        return { shutdown: async () => void stopped++ };
      },
    });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    const first = await startTelemetry(logger, env, load);
    expect(first).not.toBeNull();
    expect(await startTelemetry(logger, env, load)).toBe(first);
    await stopTelemetry();
    await stopTelemetry();
    expect({ started, stopped }).toEqual({ started: 1, stopped: 1 });
  });

  it('is the only way in: no module of the API but telemetry-sdk.ts imports the OpenTelemetry SDK or its instrumentations', async () => {
    // The API's sources and the operability library's (where telemetry-sdk.ts lives).
    const sources = [fileURLToPath(new URL('..', import.meta.url)), fileURLToPath(new URL('../../../../libs/shared/ops/src', import.meta.url))];
    const offenders: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && entry.name !== 'telemetry-sdk.ts') {
          if (/from '@opentelemetry\/|import\('@opentelemetry\//.test(await readFile(path, 'utf8'))) offenders.push(path);
        }
      }
    };
    for (const src of sources) await walk(src);
    expect(offenders).toEqual([]);
  });
});
