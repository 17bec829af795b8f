import { RequestContext, type MikroORM } from '@mikro-orm/core';
import { GUIDE_BODIES_OUTDATED_SQL } from '@rc/guides-infra-mikro-orm';
import type { GuideId } from '@rc/guides-domain';
import type pg from 'pg';
import type { GuideReader } from './guide-reader.js';
import type { PgGuideBodyStore } from './guide-body-store.js';

export interface GuideBodyBuildReport {
  readonly built: number;
  readonly ms: number;
}

/**
 * Fills the read model (`guide_bodies`) for every public guide whose stored body is missing or not of
 * its current version and format: pages of guides in id order, each built in one batch (a constant
 * number of queries) and written in one statement. Reads fill it too, one guide at a time; this is
 * for a deployment whose data was loaded around the API, or whose presentation changed.
 */
export class GuideBodyBuilder {
  constructor(
    private readonly deps: {
      readonly orm: MikroORM;
      readonly pool: Pick<pg.Pool, 'query'>;
      readonly reader: GuideReader;
      readonly store: PgGuideBodyStore;
    },
  ) {}

  /** `part`: only the guides whose id leaves this remainder (`index`) divided by `of`. */
  async build(options: { inline?: boolean; pageSize?: number; part?: { index: number; of: number }; progress?: (built: number) => void } = {}): Promise<GuideBodyBuildReport> {
    const { inline = true, pageSize = 200, part = { index: 0, of: 1 } } = options;
    const started = Date.now();
    let after = 0;
    let built = 0;
    for (;;) {
      const { rows } = await this.deps.pool.query<{ id: number; version: string }>(GUIDE_BODIES_OUTDATED_SQL, [inline, this.deps.store.format, after, pageSize, part.of, part.index]);
      if (!rows.length) break;
      after = rows[rows.length - 1]!.id;
      // Each page in a request context of its own: what it loads is dropped with it.
      const templates = await RequestContext.create(this.deps.orm.em, () => this.deps.reader.anonymousTemplates(rows.map((r) => r.id as GuideId), inline));
      // Labelled with the version read before building: a change meanwhile makes the row outdated, never wrong.
      const bodies = rows.flatMap((r) => {
        const body = templates.get(r.id as GuideId);
        return body ? [{ guideId: r.id, inline, version: r.version, body }] : [];
      });
      await this.deps.store.write(bodies);
      built += bodies.length;
      options.progress?.(built);
    }
    return { built, ms: Date.now() - started };
  }
}
