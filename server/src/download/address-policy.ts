/**
 * Which addresses a narration file may be downloaded from: public unicast ones only. The classification
 * is ipaddr.js's (the IANA special-purpose registries); this module only decides what counts as public
 * and how each range is named in a refusal. IPv4 carried inside IPv6 (mapped, NAT64, SIIT, 6to4) is
 * judged by its IPv4 part, since that is where the connection ends up.
 */
import net from 'net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type RangeList = Parameters<typeof ipaddr.subnetMatch>[1];

/**
 * Ranges ipaddr.js names that are still globally reachable unicast services (AS112 DNS sinks, AMT
 * relays): a file server there is as public as any other.
 */
const PUBLIC_RANGES = new Set(['unicast', 'as112', 'as112v6', 'amt']);

/** Narrower names inside ipaddr.js's `reserved`, which refusals have always used. */
const RESERVED_DETAIL = rangeList({
  documentation: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', '3fff::/20'],
  benchmarking: ['198.18.0.0/15'],
});

/** Left as plain unicast by ipaddr.js but refused here: the deprecated IPv4-compatible ::a.b.c.d, and NAT64's /32 beyond its well-known /96. */
const REFUSED_UNICAST = rangeList({
  ipv4Compatible: ['::/96'],
  localNat64: ['64:ff9b::/32'],
});

const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** How a refusal names a range ("… it is a link-local address …"); a special range not listed here is "reserved". */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'reserved',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  documentation: 'documentation',
  benchmarking: 'benchmarking',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard',
  teredo: 'Teredo',
  // 64:ff9b:1::/48 (RFC 8215) and the rest of 64:ff9b::/32: translators of a local network.
  rfc6052: 'local NAT64',
  localNat64: 'local NAT64',
};

/**
 * Why an address is not a public unicast one (a short phrase), or undefined when it is public.
 * Only the strict textual forms Node accepts are read (not `127.1` or `0x7f.0.0.1`): anything else is "malformed".
 */
export function nonPublicAddressReason(address: string): string | undefined {
  const text = stripZone(address.trim());
  if (net.isIP(text) === 0) return 'malformed';
  return reasonFor(parseAddress(text));
}

/**
 * ipaddr.js reads the deprecated IPv4-compatible `::a.b.c.d` as the IPv4-mapped `::ffff:a.b.c.d`; they
 * are different addresses (the first is not routed to IPv4), so the text form is put back to what it says.
 */
function parseAddress(text: string): Address {
  const parsed = ipaddr.parse(text);
  if (parsed.kind() !== 'ipv6' || !/^::\d+\.\d+\.\d+\.\d+$/.test(text)) return parsed;
  const parts = (parsed as ipaddr.IPv6).parts.slice();
  parts[5] = 0;
  return new ipaddr.IPv6(parts);
}

function reasonFor(address: Address): string | undefined {
  if (address.kind() === 'ipv6') {
    const embedded = embeddedIPv4(address as ipaddr.IPv6);
    if (embedded) return reasonFor(embedded);
  }
  let range: string = address.range();
  if (range === 'unicast') range = ipaddr.subnetMatch(address, REFUSED_UNICAST, 'unicast');
  if (range === 'reserved') range = ipaddr.subnetMatch(address, RESERVED_DETAIL, 'reserved');
  if (PUBLIC_RANGES.has(range)) return undefined;
  return RANGE_WORDS[range] ?? 'reserved';
}

/** The IPv4 address an IPv6 one stands for: IPv4-mapped, SIIT (RFC 6145), well-known NAT64 (RFC 6052), 6to4 (RFC 3056). */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const range = address.range();
  const parts = address.parts;
  if (range === 'rfc6145' || address.match(NAT64_WELL_KNOWN)) return ipv4FromParts(parts[6]!, parts[7]!);
  if (range === '6to4') return ipv4FromParts(parts[1]!, parts[2]!);
  return undefined;
}

function ipv4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function rangeList(ranges: Record<string, string[]>): RangeList {
  return Object.fromEntries(Object.entries(ranges).map(([name, cidrs]) => [name, cidrs.map((cidr) => ipaddr.parseCIDR(cidr))]));
}

/** `fe80::1%eth0` -> `fe80::1`: the zone names an interface, not part of the address. */
export function stripZone(address: string): string {
  const percent = address.indexOf('%');
  return percent === -1 ? address : address.slice(0, percent);
}
