import { Injectable } from '@nestjs/common';
import type { ConflictError } from '@rc/shared-kernel';
import type { ApiRequest } from './route-needs.js';

/** Builds the body of a 409: the current version of the resource, as a GET would return it. */
export type ConflictBody = (error: ConflictError, req: ApiRequest) => Promise<unknown> | undefined;

/**
 * A revision conflict answers with the current resource, not an error envelope. Each context's
 * HTTP module registers how to build it for its own conflict errors; the exception filter asks here.
 */
@Injectable()
export class ConflictBodies {
  private readonly builders: ConflictBody[] = [];

  register(builder: ConflictBody): void {
    this.builders.push(builder);
  }

  async bodyFor(error: ConflictError, req: ApiRequest): Promise<unknown> {
    for (const build of this.builders) {
      const body = await build(error, req);
      if (body !== undefined) return body;
    }
    return undefined;
  }
}
