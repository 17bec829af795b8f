/** One editor of a guide: how many of its revisions they made, and the first of them. */
export interface GuideContributor {
  readonly userId: number;
  readonly revisions: number;
  readonly firstRevisionid: number;
}

/**
 * What is read with a guide besides its content: its contributors (from its revisions, up to the
 * revision shown), its translators (the editors of the translation shown, from its revisions: none
 * when the guide shows in its own language) and its counts (views, favourites, completions). Not
 * content: never part of a revision, never saved by the aggregate.
 */
export interface GuideStatistics {
  readonly views: number;
  readonly favorites: number;
  readonly completions: number;
  readonly contributors: readonly GuideContributor[];
  /** The editors of the translation shown (see GuideTranslation), as contributors are counted. */
  readonly translators: readonly GuideContributor[];
  /**
   * Whether anyone ever commented on the guide or one of its steps, as of when it was read (each
   * comment posted, edited or deleted moves the guide's discussion stamp, in the comment's own
   * transaction). `false`: there is no comment to look up. Unknown when not read.
   */
  readonly discussed?: boolean;
}

export const NO_STATISTICS: GuideStatistics = { views: 0, favorites: 0, completions: 0, contributors: [], translators: [] };

/** A contributor with their share of the revisions, in percent (rounded). */
export interface ContributorShare {
  readonly userId: number;
  readonly percent: number;
}

/**
 * The contributors as bodies list them (as wiki pages list their authors): the creator (the editor
 * of the first revision) first, then by revisions made, most first, then by first revision; each
 * with their share of all revisions, rounded to a whole percent.
 */
export function contributorShares(contributors: readonly GuideContributor[]): ContributorShare[] {
  if (!contributors.length) return [];
  const creator = Math.min(...contributors.map((c) => c.firstRevisionid));
  const total = contributors.reduce((sum, c) => sum + c.revisions, 0);
  return [...contributors]
    .sort((a, b) => Number(b.firstRevisionid === creator) - Number(a.firstRevisionid === creator) || b.revisions - a.revisions || a.firstRevisionid - b.firstRevisionid)
    .map((c) => ({ userId: c.userId, percent: total ? Math.round((100 * c.revisions) / total) : 0 }));
}

/** The contributors after `editorId` stored revision `revisionid`. */
export function withRevision(contributors: readonly GuideContributor[], editorId: number, revisionid: number): GuideContributor[] {
  const found = contributors.some((c) => c.userId === editorId);
  if (!found) return [...contributors, { userId: editorId, revisions: 1, firstRevisionid: revisionid }];
  return contributors.map((c) => (c.userId === editorId ? { ...c, revisions: c.revisions + 1 } : c));
}
