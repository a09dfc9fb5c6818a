/**
 * Whether a URL may be fetched, and from which address. The connection is pinned to the one checked
 * address (pinnedLookup), so a second DNS answer (rebinding) cannot swap it.
 */
import { promises as dns } from 'dns';
import net, { type LookupFunction } from 'net';
import { nonPublicAddressReason, stripZone } from './address-policy';
import { displayOrigin, effectivePort, normaliseHost } from './origin';
import { DownloadRefusedError } from './refusal';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

export const defaultResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

export interface AllowedOrigin {
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  explicit: boolean;
}

export function parseAllowedOrigin(entry: string): AllowedOrigin {
  const text = String(entry).trim();
  const explicit = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  let parsed: URL;
  try {
    parsed = new URL(explicit ? text : `https://${text}`);
  } catch {
    throw new TypeError(`"${text}" in allowedOrigins is not a host name or an origin.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`"${text}" in allowedOrigins must use http or https.`);
  }
  return { protocol: parsed.protocol, hostname: normaliseHost(parsed.hostname), port: effectivePort(parsed), explicit };
}

export async function admit(url: URL, allowList: AllowedOrigin[], resolver: HostResolver, signal: AbortSignal): Promise<ResolvedAddress> {
  const origin = displayOrigin(url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DownloadRefusedError(
      'SCHEME_NOT_ALLOWED',
      `Files from "${url.protocol}" addresses are not accepted; only https (or http where allowed) is.`
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new DownloadRefusedError('HOST_NOT_ALLOWED', `File addresses carrying a user name or password are not accepted (${origin}).`);
  }

  const host = normaliseHost(url.hostname);
  const port = effectivePort(url);
  const sameHost = allowList.filter((entry) => entry.hostname === host);
  if (sameHost.length === 0) {
    throw new DownloadRefusedError(
      'HOST_NOT_ALLOWED',
      `Files from ${origin} are not accepted: the host is not in the list of allowed media hosts.`
    );
  }
  const entry = sameHost.find((candidate) => candidate.protocol === url.protocol && candidate.port === port);
  if (!entry) {
    if (!sameHost.some((candidate) => candidate.protocol === url.protocol)) {
      throw new DownloadRefusedError(
        'SCHEME_NOT_ALLOWED',
        `Files from ${origin} are not accepted: this host is allowed over ${sameHost[0]!.protocol.replace(':', '')} only.`
      );
    }
    throw new DownloadRefusedError(
      'HOST_NOT_ALLOWED',
      `Files from ${origin} are not accepted: that port is not in the list of allowed media hosts.`
    );
  }

  const literalFamily = net.isIP(host);
  let addresses: ResolvedAddress[];
  if (literalFamily !== 0) {
    addresses = [{ address: host, family: literalFamily }];
  } else {
    try {
      addresses = await abortable(resolver(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new DownloadRefusedError('NETWORK_ERROR', `The file server's name (${host}) could not be resolved.`);
    }
    if (!Array.isArray(addresses) || addresses.length === 0) {
      throw new DownloadRefusedError('NETWORK_ERROR', `The file server's name (${host}) could not be resolved.`);
    }
  }

  // Local addresses only where the operator named them outright: an IP literal (or localhost) with a scheme.
  const localAllowed = entry.explicit && (literalFamily !== 0 || host === 'localhost');
  for (const { address } of addresses) {
    const family = net.isIP(stripZone(address));
    if (family === 0) {
      throw new DownloadRefusedError(
        'PRIVATE_ADDRESS',
        `Files from ${origin} are not accepted: its name resolved to something that is not an address.`
      );
    }
    const reason = nonPublicAddressReason(address);
    if (reason === undefined) continue;
    if (localAllowed && (host !== 'localhost' || reason === 'loopback')) continue;
    throw new DownloadRefusedError(
      'PRIVATE_ADDRESS',
      `Files from ${origin} are not accepted: ${literalFamily !== 0 ? 'it is' : `${host} points to`} a ${reason} address (${address}), which is only allowed when listed by that exact address.`
    );
  }
  const chosen = addresses[0]!;
  return { address: chosen.address, family: net.isIP(stripZone(chosen.address)) };
}

/** Node asks for one address or, with autoSelectFamily, for a list; both get the checked one. */
export function pinnedLookup(address: string, family: number): LookupFunction {
  return (_hostname, options, callback) => {
    if (typeof options === 'function') {
      (options as unknown as (err: null, address: string, family: number) => void)(null, address, family);
      return;
    }
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      }
    );
  });
}
