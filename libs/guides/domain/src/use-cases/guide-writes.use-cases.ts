import { isId, type Clock, type UnitOfWork, type Violation } from '@rc/shared-kernel';
import { GuideNotFoundError, GuideTagNotFoundError, InvalidGuideError, ModeratorRequiredError, NotGuideEditorError } from '../guides.errors.js';
import { Guide, type Editor, type GuideId, type GuideInput } from '../model/guide.js';
import type { StepInput } from '../model/step.js';
import type { CategoryDirectory } from '../ports/category-directory.js';
import type { GuideImages } from '../ports/guide-images.js';
import type { GuideEventOutbox, GuideMarks, GuideTags } from '../ports/guide-activity.js';
import type { GuideRepository } from '../ports/guide.repository.js';

/** What every write needs. */
export interface GuideWriteDeps {
  readonly guides: GuideRepository;
  readonly categories: CategoryDirectory;
  readonly images: GuideImages;
  readonly outbox: GuideEventOutbox;
  readonly clock: Clock;
  readonly uow: UnitOfWork;
}

/** References a guide makes to others (category, prerequisites) are checked against their owners. */
async function checkReferences(deps: GuideWriteDeps, id: GuideId, input: GuideInput): Promise<void> {
  const violations: Violation[] = [];
  if (typeof input.category === 'string' && input.category.trim() && !(await deps.categories.exists(input.category.trim()))) {
    violations.push({ field: 'category', message: `category '${input.category.trim()}' does not exist` });
  }
  if (Array.isArray(input.prerequisites) && input.prerequisites.every(isId)) {
    const ids = input.prerequisites as number[];
    const missing = await deps.guides.missing(ids.filter((p) => p !== id));
    if (missing.length) violations.push({ field: 'prerequisites', message: `no such guide: ${missing.join(', ')}` });
    else if (ids.includes(id)) violations.push({ field: 'prerequisites', message: 'a guide cannot be its own prerequisite' });
    else if (await deps.guides.wouldCycle(id, ids)) violations.push({ field: 'prerequisites', message: 'these prerequisites would make a cycle' });
  }
  if (violations.length) throw new InvalidGuideError(violations);
}

/**
 * The image ids a write newly puts into a guide must be images the editor may show (their own, or
 * shown by content they may view): otherwise a 422 naming each field (`image`, `media.data[1]`).
 * Ids the guide already showed there are not asked about again.
 */
async function checkImages(deps: GuideWriteDeps, editor: Editor, uses: readonly { field: string; id: number }[], already: readonly number[]): Promise<void> {
  const asked = uses.filter((u) => !already.includes(u.id));
  if (!asked.length) return;
  const usable = await deps.images.usableBy({ userId: editor.userId, isAdmin: editor.isAdmin }, [...new Set(asked.map((u) => u.id))]);
  const violations: Violation[] = asked
    .filter((u) => !usable.has(u.id))
    .map((u) => ({ field: u.field, message: `${u.field}: ${u.id} is not an image of yours or one shown by content you may view` }));
  if (violations.length) throw new InvalidGuideError(violations);
}

/** The image a guide input names (`image`), when it names one. */
const guideImageUses = (input: GuideInput) => (isId(input.image) ? [{ field: 'image', id: input.image as number }] : []);

/** The images a step input shows (`media.data[i]`), when its media are images. */
function stepImageUses(step: StepInput): { field: string; id: number }[] {
  const media = step.media as { type?: unknown; data?: unknown } | null | undefined;
  if (!media || media.type !== 'image' || !Array.isArray(media.data)) return [];
  return media.data.flatMap((id, i) => (isId(id) ? [{ field: `media.data[${i}]`, id: id as number }] : []));
}

const stepImageIds = (guide: Guide, stepId: number): number[] => {
  const media = guide.steps.find((s) => s.id === stepId)?.media;
  return media?.type === 'image' ? [...media.imageIds] : [];
};

/** Loads a live guide, locked, for an editor; checks the revision the caller saw. */
async function loadForWrite(deps: GuideWriteDeps, id: GuideId, editor: Editor, revisionid?: number): Promise<Guide> {
  const guide = await deps.guides.findForUpdate(id);
  if (!guide || guide.isDeleted) throw new GuideNotFoundError();
  if (!guide.canEdit(editor)) throw new NotGuideEditorError();
  if (revisionid !== undefined) guide.assertRevision(revisionid);
  return guide;
}

async function saveWithEvents(deps: GuideWriteDeps, guide: Guide, wasPublic: boolean): Promise<void> {
  if (!guide.hasChanges) return;
  await deps.guides.save(guide);
  const at = Math.floor(deps.clock.now().getTime() / 1000);
  const s = guide.state;
  if (!wasPublic && s.isPublic && !guide.isDeleted) await deps.outbox.publish({ type: 'GuidePublished', guideId: s.id, authorId: s.authorId, guideType: s.type, at });
  if (wasPublic && (!s.isPublic || guide.isDeleted)) await deps.outbox.publish({ type: 'GuideUnpublished', guideId: s.id, authorId: s.authorId, at });
}

export class CreateGuide {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; fields: GuideInput }): Promise<Guide> {
    return this.deps.uow.run(async () => {
      const id = await this.deps.guides.nextId();
      const guide = Guide.create(id, input.editor, input.fields, this.deps.clock.now());
      await checkReferences(this.deps, id, input.fields);
      await checkImages(this.deps, input.editor, guideImageUses(input.fields), []);
      await saveWithEvents(this.deps, guide, false);
      return guide;
    });
  }
}

export class EditGuide {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number; fields: GuideInput }): Promise<Guide> {
    return this.deps.uow.run(async () => {
      const guide = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      const wasPublic = guide.state.isPublic;
      const shown = guide.state.imageId;
      guide.edit(input.editor, input.fields, this.deps.clock.now());
      await checkReferences(this.deps, guide.id, input.fields);
      await checkImages(this.deps, input.editor, guideImageUses(input.fields), shown === null ? [] : [shown]);
      await saveWithEvents(this.deps, guide, wasPublic);
      return guide;
    });
  }
}

export class SetGuidePublic {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number; isPublic: boolean }): Promise<Guide> {
    return this.deps.uow.run(async () => {
      const guide = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      const wasPublic = guide.state.isPublic;
      if (input.isPublic) guide.publish(input.editor, this.deps.clock.now());
      else guide.unpublish(input.editor, this.deps.clock.now());
      await saveWithEvents(this.deps, guide, wasPublic);
      return guide;
    });
  }
}

/**
 * Soft-deletes a guide. A guide that other guides use as a prerequisite is not deleted: they
 * would silently lose steps (422, naming them); remove it from them first.
 */
export class DeleteGuide {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number }): Promise<void> {
    await this.deps.uow.run(async () => {
      const guide = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      const wasPublic = guide.state.isPublic;
      guide.assertDeletable(input.editor);
      const dependents = await this.deps.guides.dependents(guide.id);
      if (dependents.length) {
        throw new InvalidGuideError([{ field: 'guideid', message: `this guide is a prerequisite of guide(s) ${dependents.join(', ')}; remove it from them first` }]);
      }
      guide.delete(input.editor, this.deps.clock.now());
      await saveWithEvents(this.deps, guide, wasPublic);
    });
  }
}

export class AddStep {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid?: number; step: StepInput & { orderby?: unknown } }): Promise<Guide> {
    return this.deps.uow.run(async () => {
      const guide = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      guide.addStep(input.editor, input.step, this.deps.clock.now());
      await checkImages(this.deps, input.editor, stepImageUses(input.step), []);
      await saveWithEvents(this.deps, guide, guide.state.isPublic);
      return guide;
    });
  }
}

export class EditStep {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; stepId: number; revisionid: number; step: StepInput }): Promise<Guide> {
    return this.deps.uow.run(async () => {
      const guide = await loadForWrite(this.deps, input.guideId, input.editor);
      const shown = stepImageIds(guide, input.stepId);
      guide.editStep(input.editor, input.stepId, input.revisionid, input.step, this.deps.clock.now());
      await checkImages(this.deps, input.editor, stepImageUses(input.step), shown);
      await saveWithEvents(this.deps, guide, guide.state.isPublic);
      return guide;
    });
  }
}

export class RemoveStep {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; stepId: number; revisionid: number }): Promise<Guide> {
    return this.deps.uow.run(async () => {
      const guide = await loadForWrite(this.deps, input.guideId, input.editor);
      guide.removeStep(input.editor, input.stepId, input.revisionid, this.deps.clock.now());
      await saveWithEvents(this.deps, guide, guide.state.isPublic);
      return guide;
    });
  }
}

export class ReorderSteps {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number; stepids: unknown }): Promise<Guide> {
    return this.deps.uow.run(async () => {
      const guide = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      guide.reorderSteps(input.editor, input.stepids, this.deps.clock.now());
      await saveWithEvents(this.deps, guide, guide.state.isPublic);
      return guide;
    });
  }
}

/**
 * Favourites and completions: once per user and guide; adding twice or removing nothing is fine.
 * Adding needs a guide the user may see; removing only one that exists (a guide made private since
 * keeps no mark its user cannot take back).
 */
export class MarkGuide {
  constructor(
    private readonly guides: GuideRepository,
    private readonly marks: GuideMarks,
    private readonly outbox: GuideEventOutbox,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(input: { viewer: Editor; guideId: GuideId; kind: 'favorite' | 'completion'; on: boolean }): Promise<void> {
    await this.uow.run(async () => {
      const guide = await this.guides.findById(input.guideId);
      if (!guide || guide.isDeleted || (input.on && !guide.canView(input.viewer))) throw new GuideNotFoundError();
      const now = this.clock.now();
      const changed = input.on
        ? await this.marks.add(input.kind, input.viewer.userId, guide.id, now)
        : await this.marks.remove(input.kind, input.viewer.userId, guide.id);
      if (!changed) return;
      const type = input.kind === 'favorite' ? (input.on ? 'GuideFavorited' : 'GuideUnfavorited') : input.on ? 'GuideCompleted' : 'GuideUncompleted';
      await this.outbox.publish({ type, guideId: guide.id, authorId: guide.state.authorId, userId: input.viewer.userId, at: Math.floor(now.getTime() / 1000) });
    });
  }
}

const TAG = /^[\p{L}\p{N}][\p{L}\p{N} _.:+#-]{0,31}$/u;

/** Tags are moderated: only Admins add or remove them. */
export class TagGuide {
  constructor(
    private readonly guides: GuideRepository,
    private readonly tags: GuideTags,
    private readonly clock: Clock,
  ) {}

  async execute(input: { editor: Editor; guideId: GuideId; tag: unknown; on: boolean }): Promise<Guide> {
    if (!input.editor.isAdmin) throw new ModeratorRequiredError();
    const guide = await this.guides.findById(input.guideId);
    if (!guide || guide.isDeleted) throw new GuideNotFoundError();
    const tag = typeof input.tag === 'string' ? input.tag.trim().replace(/\s+/g, ' ') : '';
    if (!TAG.test(tag)) throw new InvalidGuideError([{ field: 'tag', message: 'a tag is 1 to 32 letters, digits, spaces or _.:+#-' }]);
    if (input.on) await this.tags.add(guide.id, tag, this.clock.now());
    else if (!(await this.tags.remove(guide.id, tag))) throw new GuideTagNotFoundError();
    return guide;
  }
}
