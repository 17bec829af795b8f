import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
}

/** Where a frame's code lives: a package of node_modules, a workspace lib, the app, or V8/Node itself. */
function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const lib = /\/libs\/([^/]+\/[^/]+)\//.exec(url);
  if (lib) return `libs/${lib[1]}`;
  const app = /\/apps\/api\/dist\/([^/]+)/.exec(url);
  if (app) return `apps/api/${app[1]!.replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return 'node (core)';
  return url.replace(/^file:\/\//, '').split('/').slice(-2).join('/');
}

/** The self time of a V8 CPU profile, by area and by function (top N each), as text. */
export async function summariseProfiles(dir: string, top = 25): Promise<string> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  const out: string[] = [];
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    // Shares of the busy time: samples where the thread was idle (waiting for I/O) are left out.
    const all = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0) || 1;
    const idle = profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
    const total = all - idle || 1;
    const ms = (profile.endTime - profile.startTime) / 1000;
    const byArea = new Map<string, number>();
    const byFunction = new Map<string, number>();
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      if (!hits || node.callFrame.functionName === '(idle)') continue;
      const { functionName, url, lineNumber } = node.callFrame;
      const area = areaOf(url, functionName);
      byArea.set(area, (byArea.get(area) ?? 0) + hits);
      const key = `${functionName || '(anonymous)'}  ${area}${url ? `:${lineNumber + 1}` : ''}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    }
    const lines = (map: Map<string, number>) =>
      [...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, hits]) => `  ${((hits / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
    out.push(`${join(dir, file)}: ${(ms / 1000).toFixed(1)} s profiled, busy ${(((ms / 1000) * total) / all).toFixed(1)} s (shares below are of the busy time)`, 'self time by area:', ...lines(byArea), 'self time by function:', ...lines(byFunction), '');
  }
  return out.join('\n');
}
