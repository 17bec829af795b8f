import { isId } from '@rc/shared-kernel';
import { InvalidWikiError, StaleWikiTranslationError, WikiEditorRequiredError, WikiNotFoundError } from '../catalog.errors.js';
import { checkTitle, readWikiChangeSummary, WikiPage, type Namespace, type WikiEditor } from '../model/wiki-page.js';
import { WikiTranslation } from '../model/wiki-translation.js';
import type { WikiTranslationRepository } from '../ports/wiki-translation.repository.js';
import type { WikiChangeNote, WikiDeps } from './wiki.use-cases.js';

/**
 * Writes a page's texts in another language than its own (`PATCH /wikis/{ns}/{title}?langid=xx`,
 * or `POST /wikis?langid=xx` with an existing title and `source_revisionid`): its display title,
 * description and contents (Admins, as every page write). `revisionid` is the translation's or, for
 * a language without one yet, the page's current revision (the write starts the translation);
 * `null` (the POST form) only starts one (422 when it exists). `source_revisionid` marks the
 * translation as made from that revision of the page. Answers `null` when the page is written in
 * `langid`: nothing was done, the caller edits the page itself.
 */
export class TranslateWiki {
  constructor(
    private readonly deps: WikiDeps,
    private readonly translations: WikiTranslationRepository,
  ) {}

  async execute(input: { editor: WikiEditor; namespace: Namespace; title: string; langid: string; revisionid: number | null; fields: Readonly<Record<string, unknown>> } & WikiChangeNote): Promise<WikiPage | null> {
    if (!input.editor.isAdmin) throw new WikiEditorRequiredError();
    readWikiChangeSummary(input.summaryOfChange);
    return this.deps.uow.run(async () => {
      const { title } = checkTitle(input.title);
      const page = title ? await this.deps.wikis.findByTitle(input.namespace, title, true) : null;
      if (!page || page.isDeleted) throw new WikiNotFoundError();
      if (input.langid === page.state.langid) return null;
      const now = this.deps.clock.now();
      let translation = await this.translations.find(page.id, input.langid);
      if (translation) {
        if (input.revisionid === null) throw new InvalidWikiError([{ field: 'title', message: `the page has a '${input.langid}' translation: edit it with PATCH` }]);
        translation.assertRevision(page, input.revisionid);
      } else {
        if (input.revisionid !== null && input.revisionid !== page.state.revisionid) throw new StaleWikiTranslationError(page.state.namespace, page.state.title, input.langid);
        translation = WikiTranslation.start(page, input.langid, input.editor, page.state.revisionid, now);
      }
      translation.edit(input.editor, input.fields, now);
      const source = await this.sourceRevisionOf(page, input.fields['source_revisionid']);
      if (source !== undefined) translation.resync(input.editor, source, now);
      if (translation.hasChanges) {
        translation.describeChange(readWikiChangeSummary(input.summaryOfChange));
        const userid = translation.editedBy;
        await this.translations.save(translation);
        const s = page.state;
        await this.deps.events.publish({
          type: 'wiki.edited',
          resource: `wiki:${s.id}`,
          data: { wikiid: s.id, namespace: s.namespace, title: s.title, revisionid: translation.state.revisionid, userid, langid: input.langid },
          at: now,
        });
      }
      const languages = page.languages.includes(input.langid) ? page.languages : [...page.languages, input.langid];
      return translation.applyTo(WikiPage.restore(page.state, languages));
    });
  }

  /** `source_revisionid`, when sent: the current or a stored revision of the page in its own language (422 otherwise). */
  private async sourceRevisionOf(page: WikiPage, raw: unknown): Promise<number | undefined> {
    if (raw === undefined || raw === null) return undefined;
    const problem = new InvalidWikiError([{ field: 'source_revisionid', message: `source_revisionid must be a revision of this page in its own language ('${page.state.langid}')` }]);
    if (!isId(raw)) throw problem;
    if (raw === page.state.revisionid) return raw as number;
    const old = await this.deps.wikis.snapshot(page.id, raw as number);
    if (!old || old.langid !== page.state.langid) throw problem;
    return raw as number;
  }
}

/**
 * A page as a language shows it: its translation laid over it, or the page in its own language when
 * it has none (the original falls back to the master language; the answer's `langid` says which).
 */
export class ReadWikiTranslation {
  constructor(private readonly translations: WikiTranslationRepository) {}

  async execute(page: WikiPage, langid: string | undefined): Promise<WikiPage> {
    if (langid === undefined || langid === page.state.langid || !page.languages.includes(langid)) return page;
    const translation = await this.translations.find(page.id, langid);
    return translation ? translation.applyTo(page) : page;
  }
}
