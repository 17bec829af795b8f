import type { GuideEvent } from '@rc/guides-contracts';

/** A user's marks on guides: favourites and completions. Each is kept once per user and guide. */
export abstract class GuideMarks {
  /** Adds the mark; `false` when it was already there. */
  abstract add(kind: 'favorite' | 'completion', userId: number, guideId: number, at: Date): Promise<boolean>;
  /** Removes the mark; `false` when there was none. */
  abstract remove(kind: 'favorite' | 'completion', userId: number, guideId: number): Promise<boolean>;
}

export abstract class GuideTags {
  abstract list(guideId: number): Promise<string[]>;
  /** `false` when the tag was already there. */
  abstract add(guideId: number, tag: string, at: Date): Promise<boolean>;
  /** `false` when there was no such tag. */
  abstract remove(guideId: number, tag: string): Promise<boolean>;
}

/** Events for other contexts, written in the same unit of work as the change (delivered after commit). */
export abstract class GuideEventOutbox {
  abstract publish(event: GuideEvent): Promise<void>;
}
