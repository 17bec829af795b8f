import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm start` builds with `tsc -b` from the app's project references: a library whose build does
 * not reference a library its source imports leaves that library unbuilt on a fresh clone, and the
 * built server fails at start (type checks pass, since they read the sources). Each project's build
 * must reference every workspace library its built source imports.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

function projectDirs(): string[] {
  const dirs = readdirSync(join(root, 'apps')).map((name) => join('apps', name));
  for (const context of readdirSync(join(root, 'libs'))) {
    for (const layer of readdirSync(join(root, 'libs', context))) dirs.push(join('libs', context, layer));
  }
  return dirs.filter((dir) => existsSync(join(root, dir, 'package.json')));
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry)) out.push(path);
  }
  return out;
}

const packages = new Map(projectDirs().map((dir) => [JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).name as string, dir]));

describe('build references', () => {
  it.each(projectDirs())('%s references every library its source imports', (dir) => {
    const config = ['tsconfig.lib.json', 'tsconfig.app.json'].map((name) => join(root, dir, name)).find((path) => existsSync(path));
    if (!config) throw new Error(`${dir} has no build configuration`);
    const { references = [], exclude = [] } = JSON.parse(readFileSync(config, 'utf8')) as { references?: { path: string }[]; exclude?: string[] };
    const referenced = new Set(references.map((r) => normalize(relative(root, join(dirname(config), dirname(r.path))))));
    const built = sourceFiles(join(root, dir, 'src')).filter((file) => !exclude.some((pattern) => pattern.includes('testing') && file.includes('/testing/')));
    const imported = new Set<string>();
    for (const file of built) {
      for (const match of readFileSync(file, 'utf8').matchAll(/from '(@rc\/[a-z0-9-]+)'/g)) {
        const target = packages.get(match[1]!);
        if (target && target !== dir) imported.add(target);
      }
    }
    expect([...imported].filter((target) => !referenced.has(target)).sort()).toEqual([]);
  });
});
