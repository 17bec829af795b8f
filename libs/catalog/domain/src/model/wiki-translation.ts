import type { Violation } from '@rc/shared-kernel';
import { InvalidWikiError, StaleWikiTranslationError } from '../catalog.errors.js';
import { WikiPage, type WikiEditor, type WikiId } from './wiki-page.js';

/** The texts of a page a translation gives in its language (`null`: not translated, the source's shows). */
export const WIKI_TRANSLATED_FIELDS = { display_title: 'displayTitle', description: 'description', contents: 'contents' } as const;
type TranslatedKey = (typeof WIKI_TRANSLATED_FIELDS)[keyof typeof WIKI_TRANSLATED_FIELDS];

const LIMITS: Record<TranslatedKey, number> = { displayTitle: 255, description: 2000, contents: 262_144 };

export interface WikiTranslationState {
  readonly wikiId: WikiId;
  readonly langid: string;
  /** The translation's own revision id (0 until stored): writes in this language check it. */
  readonly revisionid: number;
  /** The revision of the page (in its own language) this translation was made from. */
  readonly sourceRevisionid: number;
  readonly displayTitle: string | null;
  readonly description: string | null;
  readonly contents: string | null;
  readonly contributorIds: readonly number[];
  readonly createdAt: Date;
  readonly modifiedAt: Date;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A wiki page (a category page above all) in another language than its own: its display title,
 * description and contents, keyed by page and language, with its own revision ids and the source
 * revision it was made from. Everything else (title, tree, image, flags, infobox, related pages,
 * the namespace's details) is the page's, shared by every language.
 */
export class WikiTranslation {
  private readonly current: Mutable<WikiTranslationState>;
  private changed = false;
  private lastEditorId: number | null = null;
  private changeSummary: string | null = null;

  private constructor(state: WikiTranslationState) {
    this.current = { ...state, contributorIds: [...state.contributorIds] };
  }

  static restore(state: WikiTranslationState): WikiTranslation {
    return new WikiTranslation(state);
  }

  /** A new, empty translation of `page` into `langid`, made from `sourceRevisionid` (stored on save). */
  static start(page: WikiPage, langid: string, editor: WikiEditor, sourceRevisionid: number, now: Date): WikiTranslation {
    const translation = new WikiTranslation({
      wikiId: page.id,
      langid,
      revisionid: 0,
      sourceRevisionid,
      displayTitle: null,
      description: null,
      contents: null,
      contributorIds: [editor.userId],
      createdAt: now,
      modifiedAt: now,
    });
    translation.touch(editor, now);
    return translation;
  }

  get state(): WikiTranslationState {
    return this.current;
  }

  get hasChanges(): boolean {
    return this.changed;
  }

  get editedBy(): number {
    return this.lastEditorId ?? this.current.contributorIds[0] ?? 0;
  }

  get summaryOfChange(): string | null {
    return this.changeSummary;
  }

  describeChange(summary: string | null): void {
    this.changeSummary = summary;
  }

  assertRevision(page: WikiPage, revisionid: number): void {
    if (revisionid !== this.current.revisionid) throw new StaleWikiTranslationError(page.state.namespace, page.state.title, this.current.langid);
  }

  /** Marks the translation as made from another revision of the page (checked by the caller to be one). */
  resync(editor: WikiEditor, sourceRevisionid: number, now: Date): void {
    if (sourceRevisionid === this.current.sourceRevisionid) return;
    this.current.sourceRevisionid = sourceRevisionid;
    this.touch(editor, now);
  }

  /**
   * Applies the translated fields that are present (`display_title`, `description`, `contents`;
   * null or '' clears one: the source's text shows again). Every other field of the page is shared
   * by every language (422); `langid`, `source_revisionid`, `namespace`, `title` and
   * `summary_of_change` are the caller's.
   */
  edit(editor: WikiEditor, input: Readonly<Record<string, unknown>>, now: Date): void {
    const violations: Violation[] = [];
    const patch: Partial<Record<TranslatedKey, string | null>> = {};
    for (const [field, value] of Object.entries(input)) {
      if (value === undefined || ['langid', 'source_revisionid', 'summary_of_change', 'namespace', 'title'].includes(field)) continue;
      const key = (WIKI_TRANSLATED_FIELDS as Record<string, TranslatedKey>)[field];
      if (!key) {
        violations.push({ field, message: `${field} is shared by every language: edit it without langid` });
        continue;
      }
      if (value === null) patch[key] = null;
      else if (typeof value !== 'string') violations.push({ field, message: `${field} must be a string or null` });
      else if ([...value].length > LIMITS[key]) violations.push({ field, message: `${field} must be at most ${LIMITS[key]} characters` });
      else patch[key] = (key === 'displayTitle' ? value.trim() : value) || null;
    }
    if (violations.length) throw new InvalidWikiError(violations);
    const changed = (Object.keys(patch) as TranslatedKey[]).filter((k) => patch[k] !== this.current[k]);
    if (!changed.length) return;
    for (const key of changed) this.current[key] = patch[key]!;
    this.touch(editor, now);
  }

  /** The page as this language shows it: the translated texts over the page's, the translation's revision, language and source revision. */
  applyTo(page: WikiPage): WikiPage {
    const t = this.current;
    const s = page.state;
    return WikiPage.restore(
      {
        ...s,
        displayTitle: t.displayTitle ?? s.displayTitle,
        description: t.description ?? s.description,
        contents: t.contents ?? s.contents,
        revisionid: t.revisionid,
        langid: t.langid,
        modifiedAt: t.modifiedAt > s.modifiedAt ? t.modifiedAt : s.modifiedAt,
        details: { ...s.details, sourceRevisionid: t.sourceRevisionid },
      },
      page.availableLangids,
    );
  }

  markStored(revisionid: number): void {
    this.current.revisionid = revisionid;
    this.changed = false;
    this.changeSummary = null;
  }

  private touch(editor: WikiEditor, now: Date): void {
    this.changed = true;
    this.lastEditorId = editor.userId;
    this.current.modifiedAt = now;
    if (!this.current.contributorIds.includes(editor.userId)) this.current.contributorIds = [...this.current.contributorIds, editor.userId];
  }
}
