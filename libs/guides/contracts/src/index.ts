/**
 * What the guides context publishes to other contexts: ids and events, nothing of its domain.
 * Events are written to the outbox in the same transaction as the change that caused them.
 */
export interface GuidePublished {
  readonly type: 'GuidePublished';
  readonly guideId: number;
  readonly authorId: number;
  readonly guideType: string;
  readonly at: number;
}

export interface GuideUnpublished {
  readonly type: 'GuideUnpublished';
  readonly guideId: number;
  readonly authorId: number;
  readonly at: number;
}

export interface GuideCompleted {
  readonly type: 'GuideCompleted';
  readonly guideId: number;
  readonly authorId: number;
  readonly userId: number;
  readonly at: number;
}

export interface GuideUncompleted {
  readonly type: 'GuideUncompleted';
  readonly guideId: number;
  readonly authorId: number;
  readonly userId: number;
  readonly at: number;
}

export interface GuideFavorited {
  readonly type: 'GuideFavorited';
  readonly guideId: number;
  readonly authorId: number;
  readonly userId: number;
  readonly at: number;
}

export interface GuideUnfavorited {
  readonly type: 'GuideUnfavorited';
  readonly guideId: number;
  readonly authorId: number;
  readonly userId: number;
  readonly at: number;
}

export type GuideEvent = GuidePublished | GuideUnpublished | GuideCompleted | GuideUncompleted | GuideFavorited | GuideUnfavorited;
