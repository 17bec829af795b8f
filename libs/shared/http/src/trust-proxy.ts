import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import proxyaddr from 'proxy-addr';

/**
 * Whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (`TRUST_PROXY`): a number of
 * reverse-proxy hops in front of the service (0: none), or the addresses and ranges of the
 * proxies, as Express's `trust proxy` takes them (`loopback`, `linklocal`, `uniquelocal`, an
 * address, `10.0.0.0/8`, `10.0.0.0/255.0.0.0`).
 */
export type TrustProxySetting = number | readonly string[];

/** Tells whether the peer at `address`, `hop` steps from the server (0: the socket's), is a trusted proxy. */
export type TrustProxy = (address: string, hop: number) => boolean;

export const MAX_TRUST_PROXY_HOPS = 10;

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Reads `TRUST_PROXY`: unset, empty or `false` is 0 (no proxy believed); an integer is a hop count;
 * anything else is a comma-separated list of addresses, ranges and range names, each checked here
 * so that a typo stops the start instead of trusting nobody (or everybody). `true` (Express's
 * "trust every peer") is refused: any client could then choose the address it is throttled as.
 */
export function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxySetting {
  const value = raw?.trim() ?? '';
  if (value === '' || value.toLowerCase() === 'false') return 0;
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value);
    if (hops <= MAX_TRUST_PROXY_HOPS) return hops;
    problems.push(`TRUST_PROXY must be a hop count from 0 to ${MAX_TRUST_PROXY_HOPS}, or proxy addresses (got '${value}')`);
    return 0;
  }
  if (value.toLowerCase() === 'true') {
    problems.push(
      "TRUST_PROXY=true would believe X-Forwarded-For from any client; give the number of proxies in front (e.g. 1) or their addresses (e.g. 'loopback, 10.0.0.0/8')",
    );
    return 0;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    try {
      if (entry === '') throw new TypeError('empty');
      proxyaddr.compile(NAMED_RANGES.includes(entry.toLowerCase()) ? entry.toLowerCase() : entry);
    } catch {
      problems.push(
        `TRUST_PROXY: '${entry}' is not an IP address, a range (10.0.0.0/8 or 10.0.0.0/255.0.0.0) or one of ${NAMED_RANGES.join(', ')}; ` +
          'use a hop count (e.g. 1) or a comma-separated list of these',
      );
    }
  }
  return entries.map((entry) => (NAMED_RANGES.includes(entry.toLowerCase()) ? entry.toLowerCase() : entry));
}

/** The setting as the function Express's `trust proxy` takes (and uses as it is). */
export function compileTrustProxy(setting: TrustProxySetting): TrustProxy {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting.length ? proxyaddr.compile([...setting]) : () => false;
}

/**
 * Whether the request reached the service over TLS: on an encrypted socket, or through a trusted
 * proxy that says `X-Forwarded-Proto: https` (the first value, as Express's `req.protocol` reads it).
 */
export function arrivedOverTls(req: IncomingMessage, trust: TrustProxy): boolean {
  if ((req.socket as Partial<TLSSocket>).encrypted) return true;
  const header = req.headers['x-forwarded-proto'];
  if (typeof header !== 'string' || !trust(req.socket.remoteAddress ?? '', 0)) return false;
  const comma = header.indexOf(',');
  return (comma === -1 ? header : header.slice(0, comma)).trim().toLowerCase() === 'https';
}

/**
 * The key a client address is throttled under: an IPv4 address (also when written IPv4-mapped,
 * `::ffff:192.0.2.1`), or the /64 network of an IPv6 address (one subscriber usually holds a whole
 * /64 and could change addresses within it at will). Anything else (only a misconfigured proxy
 * passes on a forwarded value that is not an address) is kept, cut to 64 characters.
 */
export function throttleAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.split('%')[0]!;
  if (isIP(bare) !== 6) return address.slice(0, 64);
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${all.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}
