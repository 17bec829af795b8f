import { GuideNotFoundError, GuidePrivateError, RevisionNotFoundError } from '../guides.errors.js';
import { editorTeamsDecide, Guide, mayEditGuide, type Editor, type GuideEditors, type GuideId } from '../model/guide.js';
import type { GuideRepository, GuideSnapshot } from '../ports/guide.repository.js';
import type { TeamDirectory } from '../ports/team-directory.js';
import { withTeams } from './guide-writes.use-cases.js';

/**
 * A guide for a viewer: deleted ones are not found; private ones are refused (403, as the original
 * API does) to all but those who may edit them. A guide's stored revisions follow its visibility:
 * anyone may read those of a public guide, only its editors those of a private one.
 */
export class ViewGuide {
  constructor(
    private readonly guides: GuideRepository,
    private readonly teams: TeamDirectory,
  ) {}

  async execute(input: { viewer: Editor | null; guideId: GuideId; revisionid?: number }): Promise<Guide> {
    const guide = await this.current(input.guideId, input.viewer);
    if (input.revisionid === undefined || input.revisionid === guide.state.revisionid) return guide;
    const snapshot = await this.revision(guide, input.revisionid);
    // Who may edit is not part of a revision: the guide's lists apply to its past revisions too,
    // and so do its counts and languages; its contributors are those up to the revision shown.
    return Guide.restore(snapshot.state, snapshot.steps, guide.access, { ...guide.statistics, contributors: snapshot.contributors ?? guide.statistics.contributors }, guide.languages);
  }

  /** The live guide, if the viewer may see it. */
  async current(guideId: GuideId, viewer: Editor | null): Promise<Guide> {
    const guide = await this.guides.findById(guideId);
    if (!guide || guide.isDeleted) throw new GuideNotFoundError();
    // A public guide is seen by all: the viewer's teams matter only for a private one.
    if (!guide.state.isPublic && !guide.canView(await withTeams(this.teams, guide, viewer))) throw new GuidePrivateError();
    return guide;
  }

  /** A stored revision of a guide the viewer may see (the current one included); 404 when it is not one of this guide's. */
  async revision(guide: Guide, revisionid: number): Promise<GuideSnapshot> {
    if (revisionid === guide.state.revisionid) return { state: guide.state, steps: guide.steps.map((s) => s.toState()) };
    const snapshot = await this.guides.snapshot(guide.id, revisionid);
    if (!snapshot) throw new RevisionNotFoundError();
    return snapshot;
  }

  /** Whether the viewer may edit the guide (its teams looked up only when they decide). */
  async canEdit(guide: Guide, viewer: Editor | null): Promise<boolean> {
    return guide.canEdit(await withTeams(this.teams, guide, viewer));
  }

  /** Whether the viewer may edit a live guide with these editors, read without the guide itself (its teams looked up only when they decide). */
  async mayEdit(editors: GuideEditors, viewer: Editor | null): Promise<boolean> {
    return mayEditGuide(editors, await withTeams(this.teams, { needsTeamsOf: (editor) => editorTeamsDecide(editors, editor) }, viewer));
  }
}
