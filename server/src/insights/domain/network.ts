import ipaddr from 'ipaddr.js';

/**
 * A household's network as IAB Podcast Measurement 2.1 counts it: IPv4 whole, IPv6 by its first 64
 * bits (the rest changes with privacy extensions). An unreadable address is kept: it only goes into a hash.
 */
export function listenerNetwork(address: string): string {
  // Plain IPv4 skips the parse: the events route reads this once or twice a request.
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

const PLAIN_IPV4 = /^(?:::ffff:)?((?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))$/i;
