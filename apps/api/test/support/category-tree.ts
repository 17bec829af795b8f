/** `GET /categories` as a nested object: each title maps to its children, a leaf to null. */
export type Tree = { [title: string]: Tree | null };

/** The path of titles from a root to `title` in a nested tree, or null when it is not there. */
export function pathTo(tree: Tree | null, title: string): string[] | null {
  if (!tree) return null;
  for (const [key, sub] of Object.entries(tree)) {
    if (key === title) return [key];
    const below = pathTo(sub, title);
    if (below) return [key, ...below];
  }
  return null;
}

/** Transaction control (begin, commit, rollback, savepoints), left out of statement counts. */
export const isTransaction = (sql: string) => /^(begin|commit|rollback|savepoint|release)/i.test(sql.trim());
