import { GuideNotFoundError, GuidePrivateError, RevisionNotFoundError } from '../guides.errors.js';
import { Guide, type Editor, type GuideId } from '../model/guide.js';
import type { GuideRepository } from '../ports/guide.repository.js';

/**
 * A guide for a viewer: deleted ones are not found; private ones are refused (403, as the original
 * API does) to all but their author and Admins, who may also read any stored revision.
 */
export class ViewGuide {
  constructor(private readonly guides: GuideRepository) {}

  async execute(input: { viewer: Editor | null; guideId: GuideId; revisionid?: number }): Promise<Guide> {
    const guide = await this.guides.findById(input.guideId);
    if (!guide || guide.isDeleted) throw new GuideNotFoundError();
    if (!guide.canView(input.viewer)) throw new GuidePrivateError();
    if (input.revisionid === undefined || input.revisionid === guide.state.revisionid) return guide;
    if (!guide.canEdit(input.viewer)) throw new GuidePrivateError();
    const snapshot = await this.guides.snapshot(guide.id, input.revisionid);
    if (!snapshot) throw new RevisionNotFoundError();
    return Guide.restore(snapshot.state, snapshot.steps);
  }
}
