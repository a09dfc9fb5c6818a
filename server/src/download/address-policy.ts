/**
 * Narration files come from public unicast addresses only (ipaddr.js classifies). IPv4 inside IPv6
 * (mapped, NAT64, SIIT, 6to4) is judged by its IPv4 part: that is where the connection ends up.
 */
import net from 'net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type RangeList = Parameters<typeof ipaddr.subnetMatch>[1];

/** Ranges ipaddr.js names that are still globally reachable unicast services (AS112, AMT). */
const PUBLIC_RANGES = new Set(['unicast', 'as112', 'as112v6', 'amt']);

const RESERVED_DETAIL = rangeList({
  documentation: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', '3fff::/20'],
  benchmarking: ['198.18.0.0/15'],
});

/** Plain unicast to ipaddr.js but refused: deprecated IPv4-compatible ::a.b.c.d, and NAT64's /32 beyond its /96. */
const REFUSED_UNICAST = rangeList({
  ipv4Compatible: ['::/96'],
  localNat64: ['64:ff9b::/32'],
});

const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** A special range not listed here is "reserved". */
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
  rfc6052: 'local NAT64',
  localNat64: 'local NAT64',
};

/** Only the strict forms Node accepts are read (not `127.1` or `0x7f.0.0.1`): anything else is "malformed". */
export function nonPublicAddressReason(address: string): string | undefined {
  const text = stripZone(address.trim());
  if (net.isIP(text) === 0) return 'malformed';
  return reasonFor(parseAddress(text));
}

/** ipaddr.js reads IPv4-compatible `::a.b.c.d` as IPv4-mapped; they differ (the first is not routed to IPv4). */
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

/** The zone names an interface, not part of the address. */
export function stripZone(address: string): string {
  const percent = address.indexOf('%');
  return percent === -1 ? address : address.slice(0, percent);
}
