import { OEmbedResolver, type OEmbedFields } from '@rc/media-domain';

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** The YouTube video a URL names (watch, short link, embed, shorts), or `null`. */
function youTubeId(url: URL): string | null {
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = url.pathname.slice(1);
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (url.pathname === '/watch') id = url.searchParams.get('v');
    else id = /^\/(?:embed|shorts|v)\/([^/]+)/.exec(url.pathname)?.[1] ?? null;
  }
  return id && YOUTUBE_ID.test(id) ? id : null;
}

/**
 * oEmbed fields of the well-known video sites, read from the page URL alone: the service never
 * fetches a URL a client gives (no request to an address of the client's choosing, and no provider
 * markup), so any other site is `null` and the embed keeps the fields the client sent.
 */
export class KnownProvidersOEmbedResolver extends OEmbedResolver {
  async resolve(raw: string): Promise<OEmbedFields | null> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    const youTube = youTubeId(url);
    if (youTube) {
      return { type: 'video', provider_name: 'YouTube', provider_url: 'https://www.youtube.com/', width: 480, height: 270, thumbnail_url: `https://i.ytimg.com/vi/${youTube}/hqdefault.jpg` };
    }
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    if ((host === 'vimeo.com' || host === 'player.vimeo.com') && /^\/(?:video\/)?\d{1,12}\/?$/.test(url.pathname)) {
      return { type: 'video', provider_name: 'Vimeo', provider_url: 'https://vimeo.com/' };
    }
    return null;
  }
}
