import { isId, type Clock, type IntegrationEvents, type IntegrationEventType, type UnitOfWork, type Violation } from '@rc/shared-kernel';
import { GuideNotFoundError, GuideTagNotFoundError, InvalidGuideError, ModeratorRequiredError, NotGuideEditorError } from '../guides.errors.js';
import { Guide, readChangeSummary, type Editor, type GuideId, type GuideInput } from '../model/guide.js';
import type { StepInput } from '../model/step.js';
import type { CategoryDirectory } from '../ports/category-directory.js';
import type { GuideImages } from '../ports/guide-images.js';
import type { GuideDocuments } from '../ports/guide-documents.js';
import type { GuideEventOutbox, GuideMarks, GuideTags } from '../ports/guide-activity.js';
import type { GuideRepository } from '../ports/guide.repository.js';
import type { TeamDirectory } from '../ports/team-directory.js';

/** What every write needs. */
export interface GuideWriteDeps {
  readonly guides: GuideRepository;
  readonly categories: CategoryDirectory;
  readonly images: GuideImages;
  /** The media documents guides attach; without it, document ids are not checked (unit tests that do not need them). */
  readonly documents?: GuideDocuments;
  readonly outbox: GuideEventOutbox;
  /** What the outside world (webhooks) hears of guide changes. */
  readonly events: IntegrationEvents;
  readonly clock: Clock;
  readonly uow: UnitOfWork;
  readonly teams: TeamDirectory;
}

/** The editor with their teams, looked up only when the guide's edit right depends on them. */
export async function withTeams(teams: TeamDirectory, guide: Pick<Guide, 'needsTeamsOf'>, editor: Editor | null): Promise<Editor | null> {
  return editor && guide.needsTeamsOf(editor) ? { ...editor, teamIds: await teams.teamIdsOf(editor.userId) } : editor;
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

/**
 * The documents a write newly attaches (`documents`, `featured_documentid`) must be the editor's
 * own (any for an Admin): otherwise a 422 naming each. Ids the guide already had are not asked
 * about again.
 */
async function checkDocuments(deps: GuideWriteDeps, editor: Editor, input: GuideInput, already: readonly number[]): Promise<void> {
  if (!deps.documents) return;
  const uses = [
    ...(Array.isArray(input.documents) ? input.documents.flatMap((id, i) => (isId(id) ? [{ field: `documents[${i}]`, id: id as number }] : [])) : []),
    ...(isId(input.featured_documentid) ? [{ field: 'featured_documentid', id: input.featured_documentid as number }] : []),
  ].filter((u) => !already.includes(u.id));
  if (!uses.length) return;
  const usable = await deps.documents.usableBy({ userId: editor.userId, isAdmin: editor.isAdmin }, [...new Set(uses.map((u) => u.id))]);
  const violations: Violation[] = uses.filter((u) => !usable.has(u.id)).map((u) => ({ field: u.field, message: `${u.field}: ${u.id} is not a document of yours` }));
  if (violations.length) throw new InvalidGuideError(violations);
}

/** The documents a guide attaches now (its list and its featured one). */
const attached = (guide: Guide): number[] => [...guide.state.documentIds, ...(guide.state.featuredDocumentId === null ? [] : [guide.state.featuredDocumentId])];

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

/**
 * Loads a live guide, locked, for an editor (returned with their teams when those decide); checks
 * the revision the caller saw.
 */
export async function loadForWrite(deps: GuideWriteDeps, id: GuideId, caller: Editor, revisionid?: number): Promise<{ guide: Guide; editor: Editor }> {
  const guide = await deps.guides.findForUpdate(id);
  if (!guide || guide.isDeleted) throw new GuideNotFoundError();
  const editor = (await withTeams(deps.teams, guide, caller))!;
  if (!guide.canEdit(editor)) throw new NotGuideEditorError();
  if (revisionid !== undefined) guide.assertRevision(revisionid);
  return { guide, editor };
}

/** What every write may carry: a short summary of the change, shown in the history. */
export interface ChangeNote {
  readonly summaryOfChange?: unknown;
}

/** What a write did to a guide, for the integration events: its fields, its steps, or only its visibility. */
type GuideChange = 'created' | 'edited' | 'steps' | 'visibility';

async function saveWithEvents(deps: GuideWriteDeps, guide: Guide, wasPublic: boolean, note: ChangeNote = {}, change: GuideChange = 'edited'): Promise<void> {
  if (!guide.hasChanges) return;
  guide.describeChange(readChangeSummary(note.summaryOfChange));
  const userid = guide.editedBy;
  await deps.guides.save(guide);
  const now = deps.clock.now();
  const at = Math.floor(now.getTime() / 1000);
  const s = guide.state;
  if (!wasPublic && s.isPublic && !guide.isDeleted) await deps.outbox.publish({ type: 'GuidePublished', guideId: s.id, authorId: s.authorId, guideType: s.type, at });
  if (wasPublic && (!s.isPublic || guide.isDeleted)) await deps.outbox.publish({ type: 'GuideUnpublished', guideId: s.id, authorId: s.authorId, at });
  const types: IntegrationEventType[] = [];
  if (guide.isDeleted) types.push('guide.deleted');
  else {
    if (change !== 'visibility') types.push(change === 'created' ? 'guide.created' : change === 'steps' ? 'guide.steps_changed' : 'guide.edited');
    if (!wasPublic && s.isPublic) types.push('guide.published');
    if (wasPublic && !s.isPublic) types.push('guide.unpublished');
  }
  const data = { guideid: s.id, revisionid: s.revisionid, userid, public: s.isPublic };
  for (const type of types) await deps.events.publish({ type, resource: `guide:${s.id}`, data, at: now });
}

export class CreateGuide {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; fields: GuideInput } & ChangeNote): Promise<Guide> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const id = await this.deps.guides.nextId();
      const guide = Guide.create(id, input.editor, input.fields, this.deps.clock.now());
      await checkReferences(this.deps, id, input.fields);
      await checkImages(this.deps, input.editor, guideImageUses(input.fields), []);
      await checkDocuments(this.deps, input.editor, input.fields, []);
      await saveWithEvents(this.deps, guide, false, input, 'created');
      return guide;
    });
  }
}

export class EditGuide {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number; fields: GuideInput } & ChangeNote): Promise<Guide> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      const wasPublic = guide.state.isPublic;
      const shown = guide.state.imageId;
      const documents = attached(guide);
      guide.edit(editor, input.fields, this.deps.clock.now());
      await checkReferences(this.deps, guide.id, input.fields);
      await checkImages(this.deps, editor, guideImageUses(input.fields), shown === null ? [] : [shown]);
      await checkDocuments(this.deps, editor, input.fields, documents);
      await saveWithEvents(this.deps, guide, wasPublic, input);
      return guide;
    });
  }
}

export class SetGuidePublic {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number; isPublic: boolean } & ChangeNote): Promise<Guide> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      const wasPublic = guide.state.isPublic;
      if (input.isPublic) guide.publish(editor, this.deps.clock.now());
      else guide.unpublish(editor, this.deps.clock.now());
      await saveWithEvents(this.deps, guide, wasPublic, input, 'visibility');
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

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number } & ChangeNote): Promise<void> {
    readChangeSummary(input.summaryOfChange);
    await this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      const wasPublic = guide.state.isPublic;
      guide.assertDeletable(editor);
      const dependents = await this.deps.guides.dependents(guide.id);
      if (dependents.length) {
        throw new InvalidGuideError([{ field: 'guideid', message: `this guide is a prerequisite of guide(s) ${dependents.join(', ')}; remove it from them first` }]);
      }
      guide.delete(editor, this.deps.clock.now());
      await saveWithEvents(this.deps, guide, wasPublic, input);
    });
  }
}

export class AddStep {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid?: number; step: StepInput & { orderby?: unknown } } & ChangeNote): Promise<Guide> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      guide.addStep(editor, input.step, this.deps.clock.now());
      await checkImages(this.deps, editor, stepImageUses(input.step), []);
      await saveWithEvents(this.deps, guide, guide.state.isPublic, input, 'steps');
      return guide;
    });
  }
}

export class EditStep {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; stepId: number; revisionid: number; step: StepInput } & ChangeNote): Promise<Guide> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor);
      const shown = stepImageIds(guide, input.stepId);
      guide.editStep(editor, input.stepId, input.revisionid, input.step, this.deps.clock.now());
      await checkImages(this.deps, editor, stepImageUses(input.step), shown);
      await saveWithEvents(this.deps, guide, guide.state.isPublic, input, 'steps');
      return guide;
    });
  }
}

export class RemoveStep {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; stepId: number; revisionid: number } & ChangeNote): Promise<Guide> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor);
      guide.removeStep(editor, input.stepId, input.revisionid, this.deps.clock.now());
      await saveWithEvents(this.deps, guide, guide.state.isPublic, input, 'steps');
      return guide;
    });
  }
}

export class ReorderSteps {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number; stepids: unknown } & ChangeNote): Promise<Guide> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      guide.reorderSteps(editor, input.stepids, this.deps.clock.now());
      await saveWithEvents(this.deps, guide, guide.state.isPublic, input, 'steps');
      return guide;
    });
  }
}

/**
 * Makes an older revision's content the guide's, as a new revision (author, collaborators, team
 * members, Admins): `revisionid` must be the current one (409), `toRevisionid` a stored revision
 * of this guide (422 otherwise); the restored category and prerequisites are checked again.
 */
export class RevertGuide {
  constructor(private readonly deps: GuideWriteDeps) {}

  async execute(input: { editor: Editor; guideId: GuideId; revisionid: number; toRevisionid: number } & ChangeNote): Promise<Guide> {
    readChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { guide, editor } = await loadForWrite(this.deps, input.guideId, input.editor, input.revisionid);
      const old = await this.deps.guides.snapshot(guide.id, input.toRevisionid);
      if (!old) throw new InvalidGuideError([{ field: 'to_revisionid', message: 'no such revision of this guide' }]);
      guide.revertTo(editor, old, this.deps.clock.now());
      await checkReferences(this.deps, guide.id, { category: old.state.category, prerequisites: [...guide.state.prerequisites] });
      await saveWithEvents(this.deps, guide, guide.state.isPublic, input);
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
    private readonly teams: TeamDirectory,
  ) {}

  async execute(input: { viewer: Editor; guideId: GuideId; kind: 'favorite' | 'completion'; on: boolean }): Promise<void> {
    await this.uow.run(async () => {
      const guide = await this.guides.findById(input.guideId);
      if (!guide || guide.isDeleted || (input.on && !guide.state.isPublic && !guide.canView(await withTeams(this.teams, guide, input.viewer)))) throw new GuideNotFoundError();
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
