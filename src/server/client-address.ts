// The client's address, as the write limits count it (src/handler/rate-limits.ts).
import { isIP } from 'node:net';

/**
 * The address of the client a request comes from: the socket's, or, when the server is told
 * it runs behind a proxy (--trust-proxy), the last X-Forwarded-For entry, which that proxy
 * appended. Entries before it are whatever the client wrote, so they are never believed;
 * without --trust-proxy the header is ignored whole, or anyone could pick their own address.
 * An IPv6 client is counted by its /64, the block one subscriber gets; an IPv4 address
 * mapped into IPv6 (::ffff:192.0.2.1) as the IPv4 address it is.
 */
export function clientAddressOf(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustProxy: boolean,
): string | undefined {
  const forwarded = trustProxy ? lastEntry(forwardedFor) : undefined;
  const address = forwarded !== undefined && isIP(forwarded) !== 0 ? forwarded : socketAddress;
  return address === undefined ? undefined : countedAs(address);
}

function lastEntry(header: string | string[] | undefined): string | undefined {
  const text = Array.isArray(header) ? header.join(',') : header;
  return text?.split(',').at(-1)?.trim() || undefined;
}

function countedAs(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, `::` filled in with zeros (a zone index dropped). */
function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => '0');
  return [...left, ...zeros, ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}
