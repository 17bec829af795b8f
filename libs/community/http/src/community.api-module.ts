import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { WikiDirectory } from '@rc/catalog-contracts';
import { CommunityGuides, CommunityImages, GuideDiscussions } from '@rc/community-contracts';
import {
  CommentQueries,
  CommentRepository,
  CommentTargets,
  DeleteComment,
  EditComment,
  EditStory,
  ListComments,
  ListStories,
  PostComment,
  PostStory,
  StoryQueries,
  StoryReferences,
  StoryRepository,
  ThreadsOfGuides,
  ViewComment,
  ViewStory,
  type CommentDeps,
  type StoryDeps,
} from '@rc/community-domain';
import { MikroOrmCommentQueries, MikroOrmCommentRepository, MikroOrmStoryQueries, MikroOrmStoryRepository } from '@rc/community-infra-mikro-orm';
import { UserSummaries } from '@rc/identity-contracts';
import { factory, KeptAnswers } from '@rc/shared-http';
import { ContentStampReader } from '@rc/shared-infra-mikro-orm';
import { Clock, IntegrationEvents, UnitOfWork } from '@rc/shared-kernel';
import { CommentBodies } from './comment-bodies.js';
import { CommentsController } from './comments.controller.js';
import { CommunityGuideDiscussions } from './community-guide-discussions.js';
import { CommunityReader, type CommunitySettings } from './community.presenter.js';
import { StoryImages } from './story-images.js';
import { PublishedCommentTargets, PublishedStoryReferences } from './contract-ports.js';
import { StoriesController } from './stories.controller.js';

const COMMENT_DEPS = Symbol('CommentDeps');
const STORY_DEPS = Symbol('StoryDeps');

/**
 * The community context's HTTP adapter: comments and stories. Global: it provides the guides
 * context the comments of guide bodies (`GuideDiscussions`). `owners`: the modules that publish
 * what comments and stories point at (`CommunityGuides`, `CommunityImages`: the guides' and the
 * media's modules); wiki pages come from the catalog's `WikiDirectory` (its module is global).
 * `listCacheMb`: the byte budget of the comment lists and threads kept for anonymous readers.
 */
@Module({})
export class CommunityApiModule {
  static register(settings: CommunitySettings & { readonly listCacheMb: number }, owners: NonNullable<ModuleMetadata['imports']>): DynamicModule {
    return {
      module: CommunityApiModule,
      global: true,
      imports: owners,
      controllers: [CommentsController, StoriesController],
      providers: [
        factory(CommentTargets, (g: CommunityGuides, p: WikiDirectory) => new PublishedCommentTargets(g, p), [CommunityGuides, WikiDirectory]),
        factory(StoryReferences, (i: CommunityImages, g: CommunityGuides) => new PublishedStoryReferences(i, g), [CommunityImages, CommunityGuides]),
        factory(CommentRepository, (orm: MikroORM) => new MikroOrmCommentRepository(orm.em), [MikroORM]),
        factory(ContentStampReader, (orm: MikroORM) => new ContentStampReader(orm.em), [MikroORM]),
        // Served ahead of Express too when kept (see KeptAnswers): the routes keep them by URL.
        factory(CommentBodies, (kept: KeptAnswers) => kept.byUrl(new CommentBodies(settings.listCacheMb * 1024 * 1024), '/comments', '/comments/:commentid'), [KeptAnswers]),
        factory(CommentQueries, (orm: MikroORM) => new MikroOrmCommentQueries(orm.em), [MikroORM]),
        factory(StoryRepository, (orm: MikroORM) => new MikroOrmStoryRepository(orm.em), [MikroORM]),
        factory(StoryQueries, (orm: MikroORM) => new MikroOrmStoryQueries(orm.em), [MikroORM]),
        {
          provide: COMMENT_DEPS,
          inject: [CommentRepository, CommentQueries, CommentTargets, StoryRepository, Clock, UnitOfWork, IntegrationEvents],
          useFactory: (comments: CommentRepository, queries: CommentQueries, targets: CommentTargets, stories: StoryRepository, clock: Clock, uow: UnitOfWork, events: IntegrationEvents): CommentDeps => ({
            comments,
            queries,
            targets,
            stories,
            clock,
            uow,
            events,
          }),
        },
        {
          provide: STORY_DEPS,
          inject: [StoryRepository, StoryReferences, Clock, UnitOfWork],
          useFactory: (stories: StoryRepository, references: StoryReferences, clock: Clock, uow: UnitOfWork): StoryDeps => ({ stories, references, clock, uow }),
        },
        ...[PostComment, EditComment, DeleteComment, ViewComment, ListComments].map((UseCase) => ({ provide: UseCase, inject: [COMMENT_DEPS], useFactory: (deps: CommentDeps) => new UseCase(deps) })),
        ...[PostStory, EditStory].map((UseCase) => ({ provide: UseCase, inject: [STORY_DEPS], useFactory: (deps: StoryDeps) => new UseCase(deps) })),
        factory(ViewStory, (s: StoryRepository) => new ViewStory(s), [StoryRepository]),
        factory(ListStories, (q: StoryQueries) => new ListStories(q), [StoryQueries]),
        factory(ThreadsOfGuides, (q: CommentQueries) => new ThreadsOfGuides(q), [CommentQueries]),
        factory(GuideDiscussions, (t: ThreadsOfGuides) => new CommunityGuideDiscussions(t, settings.renderer), [ThreadsOfGuides]),
        factory(CommunityReader, (u: UserSummaries, g: CommunityGuides, i: StoryImages) => new CommunityReader(u, g, i, settings), [UserSummaries, CommunityGuides, StoryImages]),
      ],
      exports: [GuideDiscussions, PostComment, PostStory],
    };
  }
}
