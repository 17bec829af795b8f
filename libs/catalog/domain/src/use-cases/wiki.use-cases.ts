import { isId, type Clock, type IntegrationEvents, type UnitOfWork } from '@rc/shared-kernel';
import { InvalidWikiError, WikiEditorRequiredError, WikiNotFoundError, WikiRevisionNotFoundError } from '../catalog.errors.js';
import { checkTitle, NAMESPACES, readWikiChangeSummary, WikiPage, type Namespace, type WikiEditor, type WikiInput, type WikiRef, type WikiState } from '../model/wiki-page.js';
import type { WikiImages } from '../ports/wiki-images.js';
import type { WikiRepository, WikiTags } from '../ports/wiki.repository.js';

export interface WikiDeps {
  readonly wikis: WikiRepository;
  readonly images: WikiImages;
  readonly clock: Clock;
  readonly uow: UnitOfWork;
  /** What the outside world (webhooks) hears of page changes. */
  readonly events: IntegrationEvents;
}

/** What every write may carry: a short summary of the change, shown in the history. */
export interface WikiChangeNote {
  readonly summaryOfChange?: unknown;
}

/** Saves the page's change with the note's summary (checked before any write by `readWikiChangeSummary`). */
async function saveNoted(deps: WikiDeps, page: WikiPage, note: WikiChangeNote, created = false): Promise<void> {
  const changed = page.hasChanges;
  if (changed) page.describeChange(readWikiChangeSummary(note.summaryOfChange));
  const userid = page.editedBy;
  await deps.wikis.save(page);
  if (!changed) return;
  const s = page.state;
  await deps.events.publish({
    type: page.isDeleted ? 'wiki.deleted' : created ? 'wiki.created' : 'wiki.edited',
    resource: `wiki:${s.id}`,
    data: { wikiid: s.id, namespace: s.namespace, title: s.title, revisionid: s.revisionid, userid },
    at: deps.clock.now(),
  });
}

export function namespaceOf(value: string): Namespace {
  const namespace = NAMESPACES.find((n) => n === value.toUpperCase());
  if (!namespace) throw new WikiNotFoundError();
  return namespace;
}

/** The parent a CATEGORY names: `null` for a root, the id of a live category, or a 422. */
async function resolveParent(deps: WikiDeps, parent: unknown): Promise<number | null | undefined> {
  if (parent === undefined) return undefined;
  if (parent === null || parent === '') return null;
  const { title, problem } = checkTitle(parent);
  if (problem) throw new InvalidWikiError([{ field: 'parent', message: `parent: ${problem}` }]);
  const id = await deps.wikis.categoryId(title!);
  if (id === null) throw new InvalidWikiError([{ field: 'parent', message: `no category '${title}'` }]);
  return id;
}

/** Pages newly named as related must exist (ones kept from before may since have gone: reads leave them out). */
async function assertRelatedExist(deps: WikiDeps, related: readonly WikiRef[], before: readonly WikiRef[]): Promise<void> {
  const same = (a: WikiRef) => (b: WikiRef) => a.namespace === b.namespace && a.title === b.title;
  const added = related.filter((r) => !before.some(same(r)));
  if (!added.length) return;
  const existing = await deps.wikis.existing(added);
  const missing = added.filter((r) => !existing.some(same(r)));
  if (missing.length) {
    throw new InvalidWikiError(missing.map((r) => ({ field: 'related', message: `no ${r.namespace} page '${r.title}'`, index: related.findIndex(same(r)) })));
  }
}

/** An image newly named (`image`) must be one the editor may show: their own, or one shown by content they may view. */
async function assertImageUsable(deps: WikiDeps, editor: WikiEditor, image: unknown, before: number | null): Promise<void> {
  if (!isId(image) || image === before) return;
  const usable = await deps.images.usableBy({ userId: editor.userId, isAdmin: editor.isAdmin }, [image as number]);
  if (!usable.has(image as number)) throw new InvalidWikiError([{ field: 'image', message: `image: ${image} is not an image of yours or one shown by content you may view` }]);
}

async function load(deps: WikiDeps, namespace: Namespace, rawTitle: string, forUpdate: boolean): Promise<WikiPage> {
  const { title } = checkTitle(rawTitle);
  const page = title ? await deps.wikis.findByTitle(namespace, title, forUpdate) : null;
  if (!page || page.isDeleted) throw new WikiNotFoundError();
  return page;
}

export class CreateWiki {
  constructor(private readonly deps: WikiDeps) {}

  async execute(input: { editor: WikiEditor; fields: WikiInput } & WikiChangeNote): Promise<WikiPage> {
    if (!input.editor.isAdmin) throw new WikiEditorRequiredError();
    readWikiChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const parentId = (await resolveParent(this.deps, input.fields.parent)) ?? null;
      const page = WikiPage.create(await this.deps.wikis.nextId(), input.editor, input.fields, parentId, this.deps.clock.now());
      const existing = await this.deps.wikis.findByTitle(page.state.namespace, page.state.title);
      if (existing && !existing.isDeleted) throw new InvalidWikiError([{ field: 'title', message: `a ${page.state.namespace} page titled '${page.state.title}' exists` }]);
      await assertRelatedExist(this.deps, page.state.related, []);
      await assertImageUsable(this.deps, input.editor, input.fields.image, null);
      await saveNoted(this.deps, page, input, true);
      return page;
    });
  }
}

export class EditWiki {
  constructor(private readonly deps: WikiDeps) {}

  async execute(input: { editor: WikiEditor; namespace: Namespace; title: string; revisionid: number; fields: WikiInput } & WikiChangeNote): Promise<WikiPage> {
    if (!input.editor.isAdmin) throw new WikiEditorRequiredError();
    readWikiChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const page = await load(this.deps, input.namespace, input.title, true);
      page.assertRevision(input.revisionid);
      const parentId = page.state.namespace === 'CATEGORY' ? await resolveParent(this.deps, input.fields.parent) : undefined;
      if (parentId !== undefined && parentId !== null && (await this.deps.wikis.isInSubtree(page.id, parentId))) {
        throw new InvalidWikiError([{ field: 'parent', message: 'a category cannot move under itself or one of its descendants' }]);
      }
      const relatedBefore = page.state.related;
      const imageBefore = page.state.imageId;
      page.edit(input.editor, input.fields, parentId, this.deps.clock.now());
      await assertRelatedExist(this.deps, page.state.related, relatedBefore);
      await assertImageUsable(this.deps, input.editor, input.fields.image, imageBefore);
      await saveNoted(this.deps, page, input);
      return page;
    });
  }
}

/** Soft delete. A category that still has child categories stays (422). */
export class DeleteWiki {
  constructor(private readonly deps: WikiDeps) {}

  async execute(input: { editor: WikiEditor; namespace: Namespace; title: string; revisionid: number } & WikiChangeNote): Promise<void> {
    if (!input.editor.isAdmin) throw new WikiEditorRequiredError();
    readWikiChangeSummary(input.summaryOfChange);
    await this.deps.uow.run(async () => {
      const page = await load(this.deps, input.namespace, input.title, true);
      page.assertRevision(input.revisionid);
      if (page.state.namespace === 'CATEGORY' && (await this.deps.wikis.liveChildren(page.id)) > 0) {
        throw new InvalidWikiError([{ field: 'title', message: 'this category has child categories: move or delete them first' }]);
      }
      page.delete(input.editor, this.deps.clock.now());
      await saveNoted(this.deps, page, input);
    });
  }
}

/** Restores an older revision's content as a new revision. */
export class RevertWiki {
  constructor(private readonly deps: WikiDeps) {}

  async execute(input: { editor: WikiEditor; namespace: Namespace; title: string; revisionid: number; toRevisionid: number } & WikiChangeNote): Promise<WikiPage> {
    if (!input.editor.isAdmin) throw new WikiEditorRequiredError();
    readWikiChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const page = await load(this.deps, input.namespace, input.title, true);
      page.assertRevision(input.revisionid);
      const old = await this.deps.wikis.snapshot(page.id, input.toRevisionid);
      if (!old) throw new InvalidWikiError([{ field: 'to_revisionid', message: 'no such revision of this page' }]);
      page.revertTo(input.editor, old, this.deps.clock.now());
      await saveNoted(this.deps, page, input);
      return page;
    });
  }
}

export class ViewWiki {
  constructor(private readonly wikis: WikiRepository) {}

  async execute(input: { namespace: Namespace; title: string; revisionid?: number }): Promise<WikiPage> {
    const { title } = checkTitle(input.title);
    const page = title ? await this.wikis.findByTitle(input.namespace, title) : null;
    if (!page || page.isDeleted) throw new WikiNotFoundError();
    if (input.revisionid === undefined || input.revisionid === page.state.revisionid) return page;
    const old = await this.wikis.snapshot(page.id, input.revisionid);
    if (!old) throw new WikiRevisionNotFoundError();
    return WikiPage.restore(old, page.languages);
  }
}

/** A live page's stored revisions, newest first, paged. */
export class WikiHistory {
  constructor(private readonly wikis: WikiRepository) {}

  async execute(input: { namespace: Namespace; title: string; page: { limit: number; offset: number } }) {
    const page = await new ViewWiki(this.wikis).execute(input);
    return this.wikis.revisions(page.id, input.page);
  }
}

/** Two stored revisions of a live page (the current one included): 404 for one that is not this page's. */
export class CompareWikiRevisions {
  constructor(private readonly wikis: WikiRepository) {}

  async execute(input: { namespace: Namespace; title: string; from: number; to: number }): Promise<{ page: WikiPage; from: WikiState; to: WikiState }> {
    const page = await new ViewWiki(this.wikis).execute(input);
    const read = async (revisionid: number): Promise<WikiState> => {
      if (revisionid === page.state.revisionid) return page.state;
      const old = await this.wikis.snapshot(page.id, revisionid);
      if (!old) throw new WikiRevisionNotFoundError();
      return old;
    };
    const [from, to] = await Promise.all([read(input.from), read(input.to)]);
    return { page, from, to };
  }
}

const TAG = /^[\p{L}\p{N}][\p{L}\p{N} _.:+#-]{0,31}$/u;

export class TagWiki {
  constructor(
    private readonly wikis: WikiRepository,
    private readonly tags: WikiTags,
    private readonly clock: Clock,
  ) {}

  async execute(input: { editor: WikiEditor; namespace: Namespace; title: string; tag: unknown; on: boolean }): Promise<WikiPage> {
    if (!input.editor.isAdmin) throw new WikiEditorRequiredError();
    const page = await new ViewWiki(this.wikis).execute(input);
    const tag = typeof input.tag === 'string' ? input.tag.trim().replace(/\s+/g, ' ') : '';
    if (!TAG.test(tag)) throw new InvalidWikiError([{ field: 'tag', message: 'a tag is 1 to 32 letters, digits, spaces or _.:+#-' }]);
    if (input.on) await this.tags.add(page.id, tag, this.clock.now());
    else if (!(await this.tags.remove(page.id, tag))) throw new WikiNotFoundError('Tag not found');
    return page;
  }
}
