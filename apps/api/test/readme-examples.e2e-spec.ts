import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestApi, type TestApi } from './support/test-api.js';

// Every curl example of the README and of the documents it leads to, run top to bottom as a
// newcomer would paste them, against a fresh server with the demo data: each must work (curl fails
// on any 4xx/5xx answer here).

const root = fileURLToPath(new URL('../../..', import.meta.url));
const registerTypescript = fileURLToPath(new URL('../../../libs/archive/http/src/testing/register-typescript.mjs', import.meta.url));
const cliEntry = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** The documents whose examples run, in the order a newcomer reads them. */
const DOCUMENTS = ['README.md', 'docs/http-contract.md', 'docs/operations.md'];

async function allExamples(): Promise<string[]> {
  const blocks: string[] = [];
  for (const document of DOCUMENTS) blocks.push(...exampleBlocks(await readFile(join(root, document), 'utf8')));
  return blocks;
}

/** A document's `sh` blocks that talk to the API, in order. */
function exampleBlocks(readme: string): string[] {
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.filter((block) => block.includes('curl ') && block.includes('http://localhost:3000/'));
}

/**
 * The blocks as one script for the test server: its origin for localhost:3000, and the CLI run
 * from its sources (the same code `npm run cli` builds and runs).
 */
function script(blocks: string[], origin: string): string {
  const cli = `"${process.execPath}" --import "${registerTypescript}" "${cliEntry}"`;
  const body = blocks
    .join('\n')
    .replaceAll('http://localhost:3000', origin)
    .replace(/npm run (--silent )?cli --/g, cli);
  // --fail-with-body: an example that answers 4xx/5xx stops the script (and shows the answer).
  return `set -eo pipefail\ncurl() { command curl --fail-with-body --show-error "$@"; }\n${body}\n`;
}

describe('the README examples', () => {
  let api: TestApi;
  let work: string;
  let archives: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'readme-'));
    archives = await mkdtemp(join(tmpdir(), 'readme-archives-'));
    api = await startTestApi({ ARCHIVE_DIR: archives, MEDIA_DIR: join(work, 'media'), MEDIA_WORKER_CONCURRENCY: '2' });
  });
  afterAll(async () => {
    await api.close();
    await rm(work, { recursive: true, force: true });
    await rm(archives, { recursive: true, force: true });
  });

  it('finds the tour, the teams and the archive examples', async () => {
    const blocks = await allExamples();
    expect(blocks.join('\n')).toMatch(/user\/token[\s\S]*reset_password\/confirm[\s\S]*teams[\s\S]*user\/media\/images[\s\S]*archives\/omanual/);
  });

  it('run top to bottom, every one works', async () => {
    const blocks = await allExamples();
    // A generous time limit: the script runs every example (archive builds, media jobs, the CLI) and only a hang should stop it.
    // NODE_PATH: the examples run in a temporary folder, not in the clone a reader pastes them in (the video example asks Node where the npm-shipped ffmpeg is).
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('bash', ['-c', script(blocks, api.origin)], { cwd: work, env: { ...process.env, DATABASE_URL: api.db.url, ARCHIVE_DIR: archives, LOG_LEVEL: 'silent', NODE_PATH: join(root, 'node_modules') }, timeout: 420_000, maxBuffer: 64 * 1024 * 1024 }, (error, out, err) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: out, stderr: err }),
      );
    });
    // Standard error holds the archive build's progress lines, and nothing else (no curl error).
    const unexpected = stderr.split('\n').filter((line) => line && !/^archive: \d+\/\d+ documents/.test(line));
    expect({ code, unexpected }).toEqual({ code: 0, unexpected: [] });
    // What the examples say they show: the reset asked and confirmed (200s), the log-out done (204),
    // the new password of the reset works, the archive saved under its own name and resumed into omanual.zip.
    expect(stdout).toMatch(/200\n[\s\S]*\nCode: [A-Za-z0-9_-]+\n[\s\S]*200\n[\s\S]*204\n/);
    // The conditional read of the tour: the ETag just read is current (304).
    expect(stdout).toMatch(/[^0-9]304\n/);
    expect((await api.request('POST', '/user/token', { appId: 'demo-app-id', body: { email: 'bob@example.com', password: 'bob-new-long-password' } })).status).toBe(201);
    const saved = await readdir(work);
    expect(saved).toContain('omanual.zip');
    // The latest archive under its own name, omanual.zip, the incremental archive of the update
    // example and the German archive.
    expect(saved).toContain('changes.zip');
    expect(saved).toContain('omanual-de.zip');
    expect(saved.filter((name) => name.endsWith('.zip'))).toHaveLength(4);
    const zip = await readFile(join(work, 'omanual.zip'));
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    expect((await readFile(join(work, 'changes.zip'))).subarray(0, 2).toString('latin1')).toBe('PK');
    expect((await readFile(join(work, 'omanual-de.zip'))).subarray(0, 2).toString('latin1')).toBe('PK');
    // The update example kept the since of the next update, from the response's X-Archive-Until.
    expect(await readFile(join(work, 'headers.txt'), 'utf8')).toMatch(/^x-archive-until: \d+\r?$/im);
  }, 480_000);
});
