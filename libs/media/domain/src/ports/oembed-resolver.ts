import type { OEmbedFields } from '../model/embed.js';

/** Asks a site's oEmbed endpoint about a page URL; `null` when the site offers none. */
export abstract class OEmbedResolver {
  abstract resolve(url: string): Promise<OEmbedFields | null>;
}
