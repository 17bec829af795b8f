import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The image installs the workspaces from their manifests before the sources are copied: each must be there. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(`${root}docker/Dockerfile`, 'utf8');
const workspaces = ['apps/api', ...readdirSync(`${root}libs`).flatMap((context) => readdirSync(`${root}libs/${context}`).map((layer) => `libs/${context}/${layer}`))].filter((dir) => {
  try {
    readFileSync(`${root}${dir}/package.json`);
    return true;
  } catch {
    return false;
  }
});

describe('docker/Dockerfile', () => {
  it.each(workspaces)('copies the manifest of %s before npm install', (dir) => {
    const copy = dockerfile.indexOf(`COPY ${dir}/package.json ${dir}/package.json`);
    expect(copy).toBeGreaterThan(-1);
    expect(copy).toBeLessThan(dockerfile.indexOf('RUN npm install'));
  });

  it('starts the API as `npm start` and the bench do (the same V8 flags: heap cap, young generation)', () => {
    const start = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts['start']!;
    const flags = /node ((?:--[a-z-]+=\d+ )+)apps\/api\/dist\/main\.js/.exec(start)?.[1]?.trim().split(' ');
    expect(flags).toEqual(expect.arrayContaining([expect.stringMatching(/^--max-old-space-size=/), expect.stringMatching(/^--max-semi-space-size=/)]));
    expect(dockerfile).toContain(`CMD ["node", ${flags!.map((flag) => `"${flag}"`).join(', ')}, "apps/api/dist/main.js"]`);
    // The bench's own flags (--node-flags) come after the production start's, which they override.
    expect(readFileSync(`${root}bench/run.ts`, 'utf8')).toContain(`const flags = [${flags!.map((flag) => `'${flag}'`).join(', ')}, ...options.nodeFlags];`);
  });

  it('sets glibc\'s malloc thresholds and arenas as `npm start` and the bench do', () => {
    const start = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts['start']!;
    const [, threshold, arenas] = /MALLOC_MMAP_THRESHOLD_=(\d+) MALLOC_ARENA_MAX=(\d+) exec node /.exec(start) ?? [];
    expect(threshold).toBeDefined();
    expect(arenas).toBeDefined();
    expect(dockerfile).toContain(`ENV MALLOC_MMAP_THRESHOLD_=${threshold} MALLOC_ARENA_MAX=${arenas}`);
    const bench = readFileSync(`${root}bench/run.ts`, 'utf8');
    expect(bench).toContain(`MALLOC_MMAP_THRESHOLD_: '${threshold}'`);
    expect(bench).toContain(`MALLOC_ARENA_MAX: '${arenas}'`);
  });

  it('keeps local state on a volume the unprivileged user owns', () => {
    expect(dockerfile).toMatch(/DATA_DIR=\/data/);
    expect(dockerfile).toMatch(/chown -R node:node \/data/);
    expect(dockerfile).toMatch(/VOLUME \/data/);
    expect(dockerfile.indexOf('chown -R node:node /data')).toBeLessThan(dockerfile.lastIndexOf('USER node'));
  });
});
