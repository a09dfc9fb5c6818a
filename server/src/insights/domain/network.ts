import ipaddr from 'ipaddr.js';

/**
 * The part of a listener's address that identifies a household or a device's network, as the IAB
 * Podcast Measurement Technical Guidelines 2.1 count it: an IPv4 address whole, an IPv6 address by
 * its first 64 bits (the rest changes with privacy extensions), an IPv4-mapped IPv6 address as the
 * IPv4 it carries. An address that cannot be read is kept as given: it still only goes into a hash.
 */
export function listenerNetwork(address: string): string {
  // Most addresses are plain IPv4, already in the form ipaddr.js would print: no parse for them
  // (the events route reads the network once or twice a request, ipaddr.js takes microseconds).
  const plain = PLAIN_IPV4.exec(address);
  if (plain) return plain[1];
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.trim());
  } catch {
    return address.trim();
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray().slice(0, 8);
  return `${new ipaddr.IPv6([...bytes, 0, 0, 0, 0, 0, 0, 0, 0]).toNormalizedString()}/64`;
}

/** An IPv4 address in canonical dotted form (no leading zeros), or one mapped into IPv6 (`::ffff:`). */
const PLAIN_IPV4 = /^(?:::ffff:)?((?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))$/i;
