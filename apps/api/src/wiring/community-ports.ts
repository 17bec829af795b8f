import type { Provider } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { CommentTargets, StoryReferences, type CommunityActor, type GuideVisibility, type ImageSize, type ResolvedTarget } from '@rc/community-domain';
import { StoryGuideSummaries } from '@rc/community-http';
import { GuideQueries, GuideRepository } from '@rc/guides-domain';
import { GuideReader } from '@rc/guides-http';
import { GUIDE_DISCUSSION_CHANGED_SQL, STEP_GUIDE_SQL } from '@rc/guides-infra-mikro-orm';
import type { ImageId } from '@rc/media-domain';
import { MikroOrmMediaRepository } from '@rc/media-infra-mikro-orm';

/** The community's targets: guides and steps by the guides context's rules, wiki pages by id. */
class CommunityTargetsOfGuides extends CommentTargets {
  constructor(private readonly orm: MikroORM, private readonly repository: GuideRepository) {
    super();
  }

  async resolve(context: 'guide' | 'step' | 'wiki', id: number): Promise<ResolvedTarget | null> {
    if (context === 'wiki') return (await this.orm.em.execute('SELECT 1 FROM wiki_pages WHERE id = ? AND deleted_at IS NULL', [id])).length ? { guideId: null } : null;
    const guideId = context === 'guide' ? id : (await this.orm.em.execute<{ guide_id: number }[]>(STEP_GUIDE_SQL, [id]))[0]?.guide_id;
    if (guideId === undefined) return null;
    return (await this.repository.findMany([guideId])).some((g) => !g.isDeleted) ? { guideId } : null;
  }

  async guides(guideIds: readonly number[], viewer: CommunityActor | null): Promise<GuideVisibility> {
    const live = (await this.repository.findMany(guideIds)).filter((g) => !g.isDeleted);
    return { existing: new Set(live.map((g) => g.id)), visible: new Set(live.filter((g) => g.canView(viewer)).map((g) => g.id)) };
  }

  async discussionChanged(guideId: number): Promise<void> {
    await this.orm.em.execute(GUIDE_DISCUSSION_CHANGED_SQL, [guideId]);
  }
}

/** Story images are the media context's (its repository), story guides the guides context's. */
class StoryReferencesOfMedia extends StoryReferences {
  constructor(private readonly orm: MikroORM, private readonly queries: GuideQueries) {
    super();
  }

  async ownedImages(ownerId: number, ids: readonly number[]): Promise<Map<number, ImageSize>> {
    const images = await new MikroOrmMediaRepository(this.orm.em).findOwnedImages(ownerId, ids as ImageId[]);
    return new Map(images.map((i) => [i.id as number, { width: i.state.width, height: i.state.height }]));
  }

  async publicGuides(ids: readonly number[]): Promise<Set<number>> {
    return new Set((await this.queries.byIds(ids)).filter((g) => g.isPublic).map((g) => g.guideid));
  }
}

/** The summaries of the stories' guides that are public, presented by the guides context. */
class GuideSummariesForStories extends StoryGuideSummaries {
  constructor(private readonly queries: GuideQueries, private readonly reader: GuideReader) {
    super();
  }

  async of(guideIds: readonly number[]): Promise<Map<number, object>> {
    const views = (await this.queries.byIds(guideIds)).filter((g) => g.isPublic);
    const bodies = await this.reader.summaries(views);
    return new Map(bodies.map((b) => [b.guideid, b]));
  }
}

/** The community's ports, bound to the guides, catalog and media contexts (the guides module is imported). */
export const communityPorts: Provider[] = [
  { provide: CommentTargets, inject: [MikroORM, GuideRepository], useFactory: (orm: MikroORM, g: GuideRepository) => new CommunityTargetsOfGuides(orm, g) },
  { provide: StoryReferences, inject: [MikroORM, GuideQueries], useFactory: (orm: MikroORM, q: GuideQueries) => new StoryReferencesOfMedia(orm, q) },
  { provide: StoryGuideSummaries, inject: [GuideQueries, GuideReader], useFactory: (q: GuideQueries, r: GuideReader) => new GuideSummariesForStories(q, r) },
];
