import type { Request } from 'express';
import type { Caller } from '@rc/identity-contracts';
import { serveStamped, StampedBodies, type StampSource } from '@rc/shared-http';

/**
 * Comment lists and threads (`GET /comments`, `GET /comments/{id}`) as anonymous readers see them,
 * kept serialized with the content stamp they were built after (see StampedBodies): what they show
 * (comments, the guides whose visibility they follow, their authors' names, reputation and teams)
 * changes the stamp, so a comment posted, edited or deleted on any instance is in the next read.
 * A signed-in reader may see comments of guides others may not: their answers are built each time.
 */
export class CommentBodies extends StampedBodies {
  /** Kept gzipped: threads are many keys read a few times each (see StampedBodiesOptions). */
  constructor(maxBytes: number) {
    super(maxBytes, Infinity, Date.now, { gzip: true });
  }
}

/** The answer for this reader: the kept one for an anonymous reader while the stamp holds, else built. */
export function keptForAnonymous(bodies: CommentBodies, stamps: StampSource, req: Request, principal: Caller | null, build: () => Promise<unknown>): Promise<unknown> {
  return principal === null ? serveStamped(bodies, stamps, req, build) : build();
}
