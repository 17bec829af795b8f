import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { startTestApi, type TestApi } from './support/test-api.js';

describe('media over HTTP', () => {
  let api: TestApi;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'rc-media-e2e-'));
    api = await startTestApi({ MEDIA_DIR: mediaDir });
  });

  afterAll(async () => {
    await api?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  describe('start', () => {
    it('refuses a start with invalid MEDIA_* variables, naming each', () => {
      expect(() => loadConfig({ MEDIA_STORE: 'floppy', MEDIA_MAX_PIXELS: 'many' })).toThrow(ConfigError);
      expect(() => loadConfig({ MEDIA_STORE: 'floppy', MEDIA_MAX_PIXELS: 'many' })).toThrow(/MEDIA_STORE must be local or s3[\s\S]*MEDIA_MAX_PIXELS must be an integer/);
    });

    it('starts the job queue after the migrations (pg-boss has its schema in the database)', async () => {
      const [row] = await api.sql<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'");
      expect(row!.n).toBeGreaterThan(0);
    });
  });
});
