import { GuideDiscussions, type GuideThreads } from '@rc/community-contracts';
import type { ThreadsOfGuides } from '@rc/community-domain';
import type { WikiRenderer } from '@rc/shared-http';
import { publishThreads } from './community.presenter.js';

/** The comments guide bodies show, published to the guides context (one query per body). */
export class CommunityGuideDiscussions extends GuideDiscussions {
  constructor(
    private readonly threads: ThreadsOfGuides,
    private readonly renderer: WikiRenderer,
  ) {
    super();
  }

  async threadsOf(targets: { readonly guideIds: readonly number[]; readonly stepIds: readonly number[] }): Promise<GuideThreads> {
    const found = await this.threads.execute(targets);
    const publish = (by: Map<number, Parameters<typeof publishThreads>[0]>) => new Map([...by].map(([id, threads]) => [id, publishThreads(threads, this.renderer)]));
    return { guides: publish(found.guides), steps: publish(found.steps) };
  }
}
