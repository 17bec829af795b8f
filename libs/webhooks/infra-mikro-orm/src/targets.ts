import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { TargetPolicy } from '@rc/webhooks-domain';

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address is private, loopback, link-local or otherwise not on the public Internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    // An IPv4-mapped address is checked as the IPv4 address it maps.
    const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (dotted) return PRIVATE.check(dotted[1]!, 'ipv4');
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
    if (hex) {
      const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
      return PRIVATE.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
    }
    return PRIVATE.check(address, 'ipv6');
  }
  return true;
}

function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** Resolves a name to all its addresses (`dns.lookup` with `all`; tests pass their own). */
export type Resolve = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (hostname, callback) => lookup(hostname, { all: true }, callback);

export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/**
 * A `lookup` for outgoing connections that refuses private addresses: the check is made on the
 * very addresses the socket connects to, so a name that resolved to a public address when the
 * subscription was registered and resolves to a private one now (DNS rebinding) is refused.
 */
export function publicOnlyLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    if (isLocalName(hostname)) return callback(refused(hostname), '', 0);
    resolve(hostname, (error, all) => {
      if (error) return callback(error, '', 0);
      const list = all.filter((a) => !options.family || a.family === options.family);
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad || !list.length) return callback(refused(hostname, bad?.address), '', 0);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function refused(host: string, address?: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${host}${address ? ` resolves to ${address}, which` : ''} is a private or loopback address`);
  error.code = 'EPRIVATETARGET';
  return error;
}

/**
 * Accepts http and https URLs without credentials or fragment, and refuses targets on private or
 * loopback addresses: an address written in the URL, `localhost`, or a name that resolves to such
 * an address now. A name that does not resolve yet is accepted (deliveries check the resolved
 * address again). `allowPrivate` lifts the address rule (tests, closed networks).
 */
export class PublicTargetPolicy extends TargetPolicy {
  constructor(private readonly allowPrivate: boolean) {
    super();
  }

  async check(url: string): Promise<{ url: string } | { refusal: string }> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { refusal: 'url is not a valid URL' };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { refusal: 'url must be http or https' };
    if (parsed.username || parsed.password) return { refusal: 'url may not carry credentials' };
    if (parsed.hash) return { refusal: 'url may not have a fragment' };
    const refusal = this.allowPrivate ? null : await this.addressRefusal(parsed.hostname.replace(/^\[|\]$/g, ''));
    return refusal ? { refusal } : { url: parsed.href };
  }

  private async addressRefusal(host: string): Promise<string | null> {
    if (isIP(host)) return isPrivateAddress(host) ? `${host} is a private or loopback address` : null;
    if (isLocalName(host)) return `${host} is a loopback address`;
    const addresses = await new Promise<LookupAddress[]>((resolve) => lookup(host, { all: true }, (error, found) => resolve(error ? [] : found)));
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    return bad ? `${host} resolves to ${bad.address}, a private or loopback address` : null;
  }
}
