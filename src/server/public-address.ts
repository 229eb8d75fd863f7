// Which addresses the server may send a site's webhooks and callbacks to: public ones only,
// unless the operator allows private ones (--allow-private-webhooks). Without this rule, an
// app's admin could make the server reach what only it reaches: a cloud's metadata service
// (169.254.169.254), the database, an intranet. The address is checked after DNS resolution,
// and the connection then made to that very address (outbound-post.ts), so a name that
// resolves anew to another address (DNS rebinding) reaches nothing unchecked.
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Resolves a host name to its addresses, as node:dns/promises lookup with `all: true` does; tests inject their own. */
export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Why an address is not public, by range. */
const NOT_PUBLIC: [range: string, prefix: number, family: 'ipv4' | 'ipv6', what: string][] = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (CGNAT) address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'a protocol assignment address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'an unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['fc00::', 7, 'ipv6', 'a private (unique local) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];

const blocks = NOT_PUBLIC.map(([range, prefix, family, what]) => {
  const list = new BlockList();
  list.addSubnet(range, prefix, family);
  return { list, family, what };
});

/**
 * The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d), which
 * reaches that IPv4 host; null for any other.
 */
function embeddedIpv4(address: string): string | null {
  // The URL parser writes an IPv6 address in its one canonical form: ::ffff:7f00:1.
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const match = /^(?:::ffff|64:ff9b:):([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return null;
  const [high, low] = [Number.parseInt(match[1]!, 16), Number.parseInt(match[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why the address is not public ("a loopback address"), or null when it is. */
export function notPublic(address: string): string | null {
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  if (version === 6) {
    const ipv4 = embeddedIpv4(address);
    if (ipv4 !== null) return notPublic(ipv4);
  }
  const family = version === 4 ? 'ipv4' : 'ipv6';
  return blocks.find((block) => block.family === family && block.list.check(address, family))?.what ?? null;
}

/** A URL, or the address it resolves to, that the server may not send to: said in its refusal. */
export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

export interface AddressRules {
  /** --allow-private-webhooks: any address, and http: as well as https:. */
  allowPrivate: boolean;
  lookup?: Lookup;
}

/**
 * The address to connect to for the URL: its host's, resolved and checked (every address the
 * name has must be public: one private among them could be the one connected to). Throws
 * AddressRefused when the URL or an address may not be sent to.
 */
export async function checkedAddress(url: URL, { allowPrivate, lookup = systemLookup }: AddressRules) {
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new AddressRefused(`${url.protocol} is refused: https: only, unless the server allows private webhooks`);
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const version = isIP(host);
  const addresses = version === 0 ? await lookup(host) : [{ address: host, family: version }];
  if (addresses.length === 0) throw new AddressRefused(`${host} resolves to no address`);
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const why = notPublic(address);
      if (why !== null) {
        throw new AddressRefused(
          `${host} is ${version === 0 ? `at ${address}, ` : ''}${why}: refused (a server started with --allow-private-webhooks sends there)`,
        );
      }
    }
  }
  return { host, address: addresses[0]!.address, family: addresses[0]!.family };
}
