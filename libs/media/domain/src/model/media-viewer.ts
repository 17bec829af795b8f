/** Who looks at media: anonymous, a user, an editor of all content, an Admin. */
export interface MediaViewer {
  readonly userId: number | null;
  /** May edit any guide (the reference's "guide-edit privilege"): sees every image. */
  readonly mayEditContent: boolean;
  readonly isAdmin: boolean;
}

export const ANONYMOUS_VIEWER: MediaViewer = { userId: null, mayEditContent: false, isAdmin: false };
