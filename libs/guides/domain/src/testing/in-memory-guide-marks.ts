import { GuideMarks } from '../ports/guide-activity.js';

type MarkKind = 'favorite' | 'completion';

/** Favourites and completions, once per kind, user and guide (like the table's primary key). */
export class InMemoryGuideMarks extends GuideMarks {
  private readonly rows = new Map<string, { kind: MarkKind; userId: number; guideId: number; at: Date }>();

  async add(kind: MarkKind, userId: number, guideId: number, at: Date): Promise<boolean> {
    const k = key(kind, userId, guideId);
    if (this.rows.has(k)) return false;
    this.rows.set(k, { kind, userId, guideId, at: new Date(at) });
    return true;
  }

  async remove(kind: MarkKind, userId: number, guideId: number): Promise<boolean> {
    return this.rows.delete(key(kind, userId, guideId));
  }

  // --- Test helpers (not part of the port) ---

  has(kind: MarkKind, userId: number, guideId: number): boolean {
    return this.rows.has(key(kind, userId, guideId));
  }

  /** When the mark was made, or `null`. */
  markedAt(kind: MarkKind, userId: number, guideId: number): Date | null {
    const row = this.rows.get(key(kind, userId, guideId));
    return row ? new Date(row.at) : null;
  }

  /** The guides a user has marked, in id order. */
  guidesMarked(kind: MarkKind, userId: number): number[] {
    return [...this.rows.values()]
      .filter((r) => r.kind === kind && r.userId === userId)
      .map((r) => r.guideId)
      .sort((a, b) => a - b);
  }
}

function key(kind: MarkKind, userId: number, guideId: number): string {
  return `${kind}:${userId}:${guideId}`;
}
