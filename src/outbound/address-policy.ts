// Which IP addresses an outbound connection may reach. Applied to the address actually connected
// to (see connector.ts), so it covers IP literals, DNS answers and redirects alike.
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true; addressClass: string } | { allowed: false; addressClass: string };

/** Decides on one IP address in canonical form (as a socket or resolver reports it). */
export type AddressPolicy = (address: string) => AddressVerdict;

export interface AddressPolicyOptions {
  /**
   * Also allow loopback, RFC 1918 private, IPv6 unique-local and carrier-grade NAT addresses:
   * for local use and tests only. Link-local stays refused even then, because 169.254.169.254
   * and fe80:: are where cloud metadata services answer with credentials.
   */
  allowPrivate?: boolean;
  /** CIDR blocks allowed whatever their class (an internal host an operator chose to reach). */
  allowedCidrs?: readonly string[];
}

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

const privateClasses = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/** The IPv4 address held in two 16-bit groups of an IPv6 address. */
function fromGroups(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 address an IPv6 address stands for by translation or tunnelling rules we can decode. */
function translatedIPv4(v6: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  if (range === 'ipv4Mapped') return v6.toIPv4Address();
  // Only the well-known NAT64 prefix 64:ff9b::/96 puts the address in the last 32 bits; the
  // local-use 64:ff9b:1::/48 may embed it elsewhere, so it stays refused as 'rfc6052'.
  if (range === 'rfc6052' && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return fromGroups(p[6], p[7]);
  if (range === '6to4') return fromGroups(p[1], p[2]);
  return undefined;
}

/**
 * The IPv4 address in an ISATAP interface id (RFC 5214: `0:5efe` or `200:5efe`, then the address),
 * under any prefix: a router of that prefix forwards to it over IPv4, so it may reach a private host.
 */
function isatapIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  return (p[4] & 0xfdff) === 0 && p[5] === 0x5efe ? fromGroups(p[6], p[7]) : undefined;
}

/**
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`, so an IPv6 address's dotted IPv4 tail is spelled in hex
 * first: `::127.0.0.1` is then judged as the `::7f00:1` it is. A bad octet is left for ipaddr.js to refuse.
 */
function hexTail(address: string): string {
  return address.replace(/:(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, (tail, ...octets: string[]) => {
    const [a, b, c, d] = octets.slice(0, 4).map(Number);
    if ([a, b, c, d].some((octet) => octet > 255)) return tail;
    return `:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  });
}

/** `::a.b.c.d` (RFC 4291 deprecated these; `::` and `::1` are classed apart by ipaddr.js). */
function isIPv4Compatible(v6: ipaddr.IPv6, range: string): boolean {
  return range === 'unicast' && v6.parts.slice(0, 6).every((group) => group === 0);
}

/**
 * The effective address and its class, looking through IPv4-in-IPv6 embeddings. The whole
 * IPv4-compatible range `::/96` is refused as 'ipv4Compatible' whatever it carries: nothing legitimate
 * uses it, and a system that still routes it would reach the IPv4 address inside.
 */
export function classifyAddress(address: string): { ip: Parsed; addressClass: string } | undefined {
  const written = address.includes(':') ? hexTail(address) : address;
  if (!ipaddr.isValid(written)) return undefined;
  const ip = ipaddr.parse(written);
  if (ip.kind() === 'ipv4') return { ip, addressClass: ip.range() };
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  if (isIPv4Compatible(v6, range)) return { ip, addressClass: 'ipv4Compatible' };
  const translated = translatedIPv4(v6, range);
  const effective = translated ? { ip: translated, addressClass: translated.range() } : { ip, addressClass: range };
  const isatap = isatapIPv4(v6);
  // An ISATAP id carrying a public address leaves the IPv6 address to be judged (and matched) as itself.
  if (isatap && isatap.range() !== 'unicast' && effective.addressClass === 'unicast') {
    return { ip: isatap, addressClass: isatap.range() };
  }
  return effective;
}

function parseCidrs(cidrs: readonly string[]): [Parsed, number][] {
  return cidrs.map((cidr) => {
    if (!ipaddr.isValidCIDR(cidr)) throw new Error(`allowedCidrs: "${cidr}" is not a CIDR block`);
    return ipaddr.parseCIDR(cidr);
  });
}

export function createAddressPolicy(options: AddressPolicyOptions = {}): AddressPolicy {
  const allowed = parseCidrs(options.allowedCidrs ?? []);
  return (address) => {
    const classified = classifyAddress(address);
    if (!classified) return { allowed: false, addressClass: 'invalid' };
    const { ip, addressClass } = classified;
    if (addressClass === 'unicast') return { allowed: true, addressClass };
    if (options.allowPrivate && privateClasses.has(addressClass)) return { allowed: true, addressClass };
    if (allowed.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) {
      return { allowed: true, addressClass };
    }
    return { allowed: false, addressClass };
  };
}
