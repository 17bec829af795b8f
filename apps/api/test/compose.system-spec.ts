import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// `compose config` on the compose files of docker/: it needs Docker Compose, so it runs with
// `npm run test:system` (CI installs Debian's docker-compose when no compose command is there).

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** `docker compose` (v2), else `docker-compose` (v1). */
function composeCommand(): string[] {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    if (spawnSync(command[0]!, [...command.slice(1), 'version'], { stdio: 'ignore' }).status === 0) return command;
  }
  throw new Error('Docker Compose was not found (on Debian: apt-get install docker-compose)');
}
const COMPOSE = composeCommand();

describe('the compose files of docker/', () => {
  it.each(['compose.production.yml', 'docker-compose.yml'])('`compose config` accepts docker/%s (with .env made from .env.example)', (file) => {
    const dir = mkdtempSync(join(tmpdir(), 'rc-compose-'));
    try {
      cpSync(join(root, 'docker'), join(dir, 'docker'), { recursive: true, filter: (source) => !source.endsWith('/.env') });
      cpSync(join(dir, 'docker/.env.example'), join(dir, 'docker/.env'));
      const result = spawnSync(COMPOSE[0]!, [...COMPOSE.slice(1), '-f', join(dir, 'docker', file), 'config', '-q'], { encoding: 'utf8', cwd: dir });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
