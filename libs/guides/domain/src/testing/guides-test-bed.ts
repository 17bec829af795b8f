import { FixedClock, ImmediateUnitOfWork, RecordingIntegrationEvents } from '@rc/shared-kernel/testing';
import type { Editor, Guide, GuideId, GuideInput } from '../model/guide.js';
import type { StepInput } from '../model/step.js';
import {
  AddStep,
  CreateGuide,
  DeleteGuide,
  EditGuide,
  EditStep,
  MarkGuide,
  RemoveStep,
  ReorderSteps,
  RevertGuide,
  SetGuidePublic,
  TagGuide,
  type GuideWriteDeps,
} from '../use-cases/guide-writes.use-cases.js';
import { ViewGuide } from '../use-cases/view-guide.use-case.js';
import { ReadGuideTranslation, TranslateGuide, TranslateStep } from '../use-cases/guide-translations.use-cases.js';
import { InMemoryGuideTranslationRepository } from './in-memory-guide-translation.repository.js';
import { ChangeGuideAccess, GuideHistory, ViewGuideAccess } from '../use-cases/guide-access.use-cases.js';
import { InMemoryTeamDirectory } from './in-memory-team-directory.js';
import { InMemoryCategoryDirectory } from './in-memory-category-directory.js';
import { InMemoryGuideImages } from './in-memory-guide-images.js';
import { InMemoryGuideDocuments } from './in-memory-guide-documents.js';
import { InMemoryGuideMarks } from './in-memory-guide-marks.js';
import { InMemoryGuideTags } from './in-memory-guide-tags.js';
import { InMemoryGuideRepository } from './in-memory-guide.repository.js';
import { RecordingOutbox } from './recording-outbox.js';

/** The author of the guides the helpers create. */
export const author: Editor = { userId: 1, isAdmin: false };
/** Another, ordinary user. */
export const other: Editor = { userId: 2, isAdmin: false };
export const admin: Editor = { userId: 99, isAdmin: true };

/** The categories the test bed's directory knows. */
export const TEST_CATEGORIES = ['iPhone 12', 'MacBook Pro'] as const;

/** The fields `createGuide` uses unless overridden: a private 'iPhone 12 Battery Replacement'. */
export const DEFAULT_GUIDE_FIELDS: GuideInput = { category: 'iPhone 12', type: 'replacement', subject: 'Battery' };

export interface GuidesTestBedOptions {
  /** Start time of the FixedClock (default 2026-01-01T00:00:00Z). */
  readonly now?: Date | string;
  /** The categories that exist (default TEST_CATEGORIES). */
  readonly categories?: readonly string[];
  /** Live teams: user id → the ids of the teams they belong to (default none). */
  readonly teams?: Record<number, readonly number[]>;
}

/** Lines of a step from their texts: bullet 'black', level 0. */
export function linesOf(...texts: string[]): { text: string; bullet: string; level: number }[] {
  return texts.map((text) => ({ text, bullet: 'black', level: 0 }));
}

/** Every fake and every use case of the guides context, wired together. */
export function guidesTestBed(options: GuidesTestBedOptions = {}) {
  const clock = new FixedClock(options.now);
  const uow = new ImmediateUnitOfWork();
  const guides = new InMemoryGuideRepository();
  const categories = new InMemoryCategoryDirectory(options.categories ?? TEST_CATEGORIES);
  const marks = new InMemoryGuideMarks();
  const tags = new InMemoryGuideTags();
  const outbox = new RecordingOutbox();
  const teams = new InMemoryTeamDirectory(options.teams);
  // Images 1 to 9 are the author's, 10 to 19 the other user's.
  const images = new InMemoryGuideImages();
  images.add(author.userId, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  images.add(other.userId, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
  // Documents 1 to 9 are the author's, 10 to 19 the other user's.
  const documents = new InMemoryGuideDocuments();
  documents.add(author.userId, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  documents.add(other.userId, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
  const events = new RecordingIntegrationEvents();
  const deps: GuideWriteDeps = { guides, categories, images, documents, outbox, events, clock, uow, teams };
  const viewGuide = new ViewGuide(guides, teams);
  const translations = new InMemoryGuideTranslationRepository(guides);

  const bed = {
    clock,
    uow,
    guides,
    categories,
    images,
    documents,
    marks,
    tags,
    outbox,
    events,
    teams,
    deps,

    createGuideUseCase: new CreateGuide(deps),
    editGuide: new EditGuide(deps),
    setGuidePublic: new SetGuidePublic(deps),
    deleteGuide: new DeleteGuide(deps),
    addStep: new AddStep(deps),
    editStep: new EditStep(deps),
    removeStep: new RemoveStep(deps),
    reorderSteps: new ReorderSteps(deps),
    revertGuide: new RevertGuide(deps),
    markGuide: new MarkGuide(guides, marks, outbox, clock, uow, teams),
    tagGuide: new TagGuide(guides, tags, clock),
    viewGuide,
    viewGuideAccess: new ViewGuideAccess(viewGuide),
    changeGuideAccess: new ChangeGuideAccess(guides, teams, uow),
    guideHistory: new GuideHistory(viewGuide, guides),
    translations,
    translateGuide: new TranslateGuide(deps, translations),
    translateStep: new TranslateStep(deps, translations),
    readTranslation: new ReadGuideTranslation(translations),

    /** Moves the clock forward by whole seconds. */
    advanceSeconds(seconds: number): void {
      clock.advance(seconds * 1000);
    },

    /** Creates a guide through CreateGuide: DEFAULT_GUIDE_FIELDS with `overrides`, by `editor` (default `author`). */
    async createGuide(overrides: GuideInput = {}, editor: Editor = author): Promise<Guide> {
      return bed.createGuideUseCase.execute({ editor, fields: { ...DEFAULT_GUIDE_FIELDS, ...overrides } });
    },

    /** Creates a guide with steps whose single lines are the given texts (default three steps). */
    async createGuideWithSteps(texts: readonly string[] = ['First', 'Second', 'Third'], overrides: GuideInput = {}, editor: Editor = author): Promise<Guide> {
      const guide = await bed.createGuide(overrides, editor);
      for (const text of texts) await bed.addStep.execute({ editor, guideId: guide.id, step: { lines: linesOf(text) } });
      return bed.stored(guide.id);
    },

    /** Adds a step through AddStep (default: one line 'Step text', last). */
    async appendStep(guideId: GuideId, step: StepInput & { orderby?: unknown } = { lines: linesOf('Step text') }, editor: Editor = author): Promise<Guide> {
      return bed.addStep.execute({ editor, guideId, step });
    },

    /** The guide as stored now; fails when there is none. */
    async stored(guideId: GuideId): Promise<Guide> {
      const guide = await guides.findById(guideId);
      if (!guide) throw new Error(`No guide ${guideId}`);
      return guide;
    },
  };
  return bed;
}

export type GuidesTestBed = ReturnType<typeof guidesTestBed>;

/** The error a promise rejects with; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject, but it resolved');
}

/** The error a function throws; fails when it returns. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('Expected the function to throw, but it returned');
}
