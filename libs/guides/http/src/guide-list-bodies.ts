import type { Request } from 'express';
import { ContentStampReader } from '@rc/shared-infra-mikro-orm';
import { serveStamped, StampedBodies } from '@rc/shared-http';

/**
 * Guide lists (`GET /guides` and `/guides/featured`) kept serialized with the content stamp they
 * were built after (see StampedBodies): what they show (guides, their authors' names, their
 * images) changes the stamp. Orders by counts are built each time: views are added in batches that
 * do not change the stamp, and favourites and completions are counted apart from the guides.
 */
export class GuideListBodies extends StampedBodies {}

const COUNT_ORDERS = new Set(['views', 'popular', 'favorites']);

/** The list this request asks for, served from the kept bodies when the stamp still reads the same, else built and kept. */
export async function stampedList(bodies: GuideListBodies, stamps: ContentStampReader, req: Request, build: () => Promise<unknown>): Promise<unknown> {
  const order = req.query['order'];
  if ((typeof order === 'string' && COUNT_ORDERS.has(order.toLowerCase())) || Array.isArray(order)) return build();
  return serveStamped(bodies, stamps, req, build);
}
