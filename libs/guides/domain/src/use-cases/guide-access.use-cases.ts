import type { UnitOfWork } from '@rc/shared-kernel';
import { GuideNotFoundError, GuideTeamNotFoundError } from '../guides.errors.js';
import type { Editor, Guide, GuideId } from '../model/guide.js';
import type { GuideRepository } from '../ports/guide.repository.js';
import type { TeamDirectory } from '../ports/team-directory.js';
import type { ViewGuide } from './view-guide.use-case.js';

/** What the viewer may do with a guide, as `GET /guides/{id}/teams` tells. */
export interface GuideRights {
  readonly canView: boolean;
  readonly canEdit: boolean;
  readonly canChangePrivacy: boolean;
}

/** A guide's collaborators and teams, for a viewer who may see the guide (403 otherwise, 404 when it is gone). */
export class ViewGuideAccess {
  constructor(private readonly view: ViewGuide) {}

  async execute(input: { viewer: Editor | null; guideId: GuideId }): Promise<{ guide: Guide; rights: GuideRights }> {
    const guide = await this.view.current(input.guideId, input.viewer);
    const canEdit = await this.view.canEdit(guide, input.viewer);
    // Publishing and unpublishing are open to the guide's editors.
    return { guide, rights: { canView: true, canEdit, canChangePrivacy: canEdit } };
  }
}

/**
 * Adds or removes a collaborator (a user who may edit the guide) or a team (whose members may):
 * only the author and Admins choose them. Adding what is there, or removing what is not, changes
 * nothing. A new team must exist; users are checked by the caller (they belong to identity).
 */
export class ChangeGuideAccess {
  constructor(
    private readonly guides: GuideRepository,
    private readonly teams: TeamDirectory,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(input: { editor: Editor; guideId: GuideId; kind: 'user' | 'team'; id: number; on: boolean }): Promise<Guide> {
    return this.uow.run(async () => {
      const guide = await this.guides.findForUpdate(input.guideId);
      if (!guide || guide.isDeleted) throw new GuideNotFoundError();
      if (input.kind === 'team' && input.on && guide.canManageAccess(input.editor) && !(await this.teams.exists(input.id))) throw new GuideTeamNotFoundError();
      if (guide.changeAccess(input.editor, input.kind, input.id, input.on)) await this.guides.saveAccess(guide);
      return guide;
    });
  }
}

/** A guide's stored revisions, newest first, for a viewer who may see the guide. */
export class GuideHistory {
  constructor(
    private readonly view: ViewGuide,
    private readonly guides: GuideRepository,
  ) {}

  async execute(input: { viewer: Editor | null; guideId: GuideId; page: { limit: number; offset: number } }) {
    const guide = await this.view.current(input.guideId, input.viewer);
    return this.guides.revisions(guide.id, input.page);
  }
}
