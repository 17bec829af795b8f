/** The sum of the samples of `name` whose labels include `labels`, in a Prometheus text exposition (null: none). */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  let total: number | null = null;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total = (total ?? 0) + Number(match[3]);
  }
  return total;
}
