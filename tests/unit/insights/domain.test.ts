import { isAutomated } from '../../../server/src/insights/domain/bots';
import { addDays, daysBetween, utcDay } from '../../../server/src/insights/domain/day';
import { mayCountAsDownload } from '../../../server/src/insights/domain/downloads';
import { readListeningEvent } from '../../../server/src/insights/domain/events';
import { listenerHash, networkHash } from '../../../server/src/insights/domain/listener-hash';
import { listenerNetwork } from '../../../server/src/insights/domain/network';
import ipaddr from 'ipaddr.js';
import { LISTENING_EVENT_MAX_BYTES } from '../../../shared/contracts/insights';

describe('listenerNetwork (IAB 2.1: IPv6 by its first 64 bits)', () => {
  it('keeps an IPv4 address, reads an IPv4-mapped IPv6 one as its IPv4, and cuts IPv6 to /64', () => {
    expect(listenerNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(listenerNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(listenerNetwork('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:8d3:0:0:0:0/64');
    expect(listenerNetwork('2001:db8:85a3:8d3::1')).toBe(listenerNetwork('2001:db8:85a3:8d3:ffff::2'));
    expect(listenerNetwork('2001:db8:85a3:8d4::1')).not.toBe(listenerNetwork('2001:db8:85a3:8d3::1'));
    expect(listenerNetwork(' not an address ')).toBe('not an address');
  });

  it('reads plain IPv4 without a parse exactly as ipaddr.js prints it, and leaves every other form to ipaddr.js', () => {
    for (const address of ['0.0.0.0', '9.9.9.9', '10.20.30.40', '199.249.250.255', '255.255.255.255', '::FFFF:192.0.2.1']) {
      expect(listenerNetwork(address)).toBe(ipaddr.process(address).toString());
    }
    // Leading zeros, out of range, padded: not the plain form, so ipaddr.js reads them (or they are kept as given).
    expect(listenerNetwork('010.0.0.1')).toBe(ipaddr.process('010.0.0.1').toString());
    expect(listenerNetwork('256.1.1.1')).toBe('256.1.1.1');
    expect(listenerNetwork(' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('parses no plain IPv4 address, mapped or not, whatever its octets: 0 to 255, one to three digits', () => {
    const parse = jest.spyOn(ipaddr, 'process');
    try {
      // Each edge of each octet range the fast path accepts (0-9, 10-99, 100-199, 200-249, 250-255), in every position.
      for (const octet of [0, 9, 10, 99, 100, 199, 200, 249, 250, 255]) {
        const address = [octet, octet, octet, octet].join('.');
        expect(listenerNetwork(address)).toBe(address);
        expect(listenerNetwork(`::ffff:${address}`)).toBe(address);
        expect(listenerNetwork(`::FFFF:${address}`)).toBe(address);
      }
      expect(listenerNetwork('203.0.113.7')).toBe('203.0.113.7');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('reads what is not canonical dotted IPv4 as ipaddr.js does, once trimmed: padded, leading zeros, missing octets', () => {
    // The fast path must not take these whole: each would become another network than the one ipaddr.js reads.
    // Padded after each kind of last octet (one digit, 10-199, 200-249, 250-255):
    expect(listenerNetwork('203.0.113.7 ')).toBe('203.0.113.7');
    expect(listenerNetwork('203.0.113.25 ')).toBe('203.0.113.25');
    expect(listenerNetwork('203.0.113.20 ')).toBe('203.0.113.20');
    expect(listenerNetwork('203.0.113.10 ')).toBe('203.0.113.10');
    expect(listenerNetwork(' 2001:db8:85a3:8d3::1 ')).toBe('2001:db8:85a3:8d3:0:0:0:0/64');
    for (const address of ['01.2.3.4', '1.2.3.01', '1.2', '1.2.3']) {
      expect({ address, network: listenerNetwork(address) }).toEqual({ address, network: ipaddr.process(address).toString() });
    }
    expect(listenerNetwork('1.2')).toBe('1.0.0.2');
    // More than four octets, or a prefix length: not an address, kept whole.
    expect(listenerNetwork('1.2.3.4.5')).toBe('1.2.3.4.5');
    expect(listenerNetwork('203.0.113.7/24')).toBe('203.0.113.7/24');
  });
});

describe('listenerHash', () => {
  const base = { salt: 'salt-1', kind: 'listener', network: '203.0.113.7', userAgent: 'Browser', articleId: 'doc-en' };
  it('is the same for the same day, network, agent and narration, and differs if any of them does', () => {
    // Pinned: a hash that changed between two versions would count a day's listeners twice.
    expect(listenerHash(base)).toBe('a7a9e1a3fb7c3bf14de0c012fc31ea43');
    expect(listenerHash(base)).toBe(listenerHash({ ...base }));
    expect(listenerHash(base)).toMatch(/^[0-9a-f]{32}$/);
    for (const change of [
      { salt: 'salt-2' },
      { kind: 'download' },
      { network: '203.0.113.8' },
      { userAgent: 'Other' },
      { articleId: 'doc-ar' },
    ]) {
      expect(listenerHash({ ...base, ...change })).not.toBe(listenerHash(base));
    }
  });
  it('holds neither the address nor the agent', () => {
    expect(listenerHash(base)).not.toContain('203');
  });

  it('is the same on a Node without crypto.hash (20.0 to 20.11, which package.json engines allow)', async () => {
    await jest.isolateModulesAsync(async () => {
      jest.doMock('crypto', () => ({ ...jest.requireActual('crypto'), hash: undefined }));
      try {
        const { listenerHash: withoutHash } = await import('../../../server/src/insights/domain/listener-hash');
        expect(withoutHash(base)).toBe('a7a9e1a3fb7c3bf14de0c012fc31ea43');
      } finally {
        jest.dontMock('crypto');
      }
    });
  });
});

describe('networkHash', () => {
  const network = { salt: 'salt-1', network: '203.0.113.7', articleId: 'doc-en' };
  it("is the listener hash of kind 'network' without a user agent: one per network, narration and day, whatever its agents", () => {
    expect(networkHash(network)).toBe(listenerHash({ ...network, kind: 'network', userAgent: '' }));
    expect(networkHash(network)).toMatch(/^[0-9a-f]{32}$/);
    // Apart from the hashes of any listener or download of that network.
    for (const kind of ['listener', 'download']) {
      expect(networkHash(network)).not.toBe(listenerHash({ ...network, kind, userAgent: '' }));
      expect(networkHash(network)).not.toBe(listenerHash({ ...network, kind, userAgent: 'Browser' }));
    }
    for (const change of [{ salt: 'salt-2' }, { network: '203.0.113.8' }, { articleId: 'doc-ar' }]) {
      expect(networkHash({ ...network, ...change })).not.toBe(networkHash(network));
    }
  });
});

describe('isAutomated', () => {
  it('leaves out crawlers, feed parsers, scripts and requests without an agent; counts browsers and podcast players', () => {
    for (const agent of [
      '',
      '   ',
      undefined,
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'curl/8.5.0',
      'python-requests/2.31',
      'node',
    ]) {
      expect({ agent, automated: isAutomated(agent) }).toEqual({ agent, automated: true });
    }
    for (const agent of [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'AppleCoreMedia/1.0.0.21H16 (iPhone; U; CPU OS 17_7 like Mac OS X; en_us)',
      'Spotify/8.9.86 iOS/17.7 (iPhone15,2)',
    ]) {
      expect({ agent, automated: isAutomated(agent) }).toEqual({ agent, automated: false });
    }
  });
  it("reads an agent without the spaces around it: a script's agent padded with them is still a script", () => {
    // isbot's patterns anchor at the agent's start and end: ' axios/1.7.2 ' alone would pass for a browser.
    expect(isAutomated(' axios/1.7.2 ')).toBe(true);
    expect(isAutomated('\taxios/1.7.2\r\n')).toBe(true);
  });
});

describe('mayCountAsDownload', () => {
  it('counts a GET, with or without a range, but not a HEAD nor a 0-1 probe', () => {
    expect(mayCountAsDownload('GET', undefined)).toBe(true);
    expect(mayCountAsDownload('GET', 'bytes=0-')).toBe(true);
    expect(mayCountAsDownload('GET', 'bytes=0-1000')).toBe(true);
    expect(mayCountAsDownload('GET', 'bytes=500-999')).toBe(true);
    expect(mayCountAsDownload('HEAD', undefined)).toBe(false);
    expect(mayCountAsDownload('GET', 'bytes=0-1')).toBe(false);
    expect(mayCountAsDownload('GET', 'bytes = 0 - 0')).toBe(false);
    expect(mayCountAsDownload('POST', undefined)).toBe(false);
  });
  it('reads a probe however it is spaced or written, and nothing else as one', () => {
    expect(mayCountAsDownload('GET', '')).toBe(true);
    expect(mayCountAsDownload('GET', ' bytes=0-1')).toBe(false);
    expect(mayCountAsDownload('GET', 'bytes=0-1 ')).toBe(false);
    expect(mayCountAsDownload('GET', 'Bytes=0-1')).toBe(false);
    expect(mayCountAsDownload('GET', 'bytes=0-01')).toBe(false);
    expect(mayCountAsDownload('GET', 'bytes=0-2')).toBe(true);
    expect(mayCountAsDownload('GET', 'bytes=0-10')).toBe(true);
    // Two ranges fetch more than the size; a range in another unit is no byte probe.
    expect(mayCountAsDownload('GET', 'bytes=0-1, 500-999')).toBe(true);
    expect(mayCountAsDownload('GET', 'x-bytes=0-1')).toBe(true);
  });
});

describe('utc days', () => {
  it('names, adds and lists days in UTC', () => {
    expect(utcDay(new Date('2026-11-27T23:59:59.999Z'))).toBe('2026-11-27');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(daysBetween('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  });
});

describe('readListeningEvent', () => {
  it('reads the JSON text sendBeacon sends, and a body already parsed', () => {
    const event = { articleId: 'doc-en', event: 'progress', percent: 30, heard: 4.2 };
    expect(readListeningEvent(JSON.stringify(event), 80)).toEqual({ event });
    expect(readListeningEvent({ articleId: 'doc-en', event: 'end', heard: 1 }, 0)).toEqual({
      event: { articleId: 'doc-en', event: 'end', heard: 1 },
    });
  });
  it('refuses what is not an event, naming why', () => {
    const refused = (body: unknown, bytes = 10) =>
      'refused' in readListeningEvent(body, bytes) ? (readListeningEvent(body, bytes) as any).refused : null;
    expect(refused('{')).toEqual({ status: 400, message: 'The body is not JSON.' });
    expect(refused({ articleId: 'doc-en', event: 'progress', heard: 1 }).message).toContain('percent');
    expect(refused({ articleId: 'doc-en', event: 'progress', percent: 100, heard: 1 }).status).toBe(400);
    expect(refused({ articleId: 'doc-en', event: 'end', percent: 90, heard: 1 }).status).toBe(400);
    expect(refused({ articleId: 'doc-en', event: 'play', heard: 3601 }).status).toBe(400);
    expect(refused({ articleId: '', event: 'play', heard: 0 }).status).toBe(400);
    expect(refused({ articleId: 'doc-en', event: 'play', heard: 0, ip: '1.2.3.4' })).toEqual({
      status: 400,
      message: 'Invalid listening event: body Unrecognized key: "ip".',
    });
    expect(refused('{"articleId":"doc-en","event":"play","heard":1e999}').message).toMatch(/^Invalid listening event: heard /);
    expect(refused({ articleId: 'doc-en', event: 'progress', percent: 30.5, heard: 1 }).message).toMatch(
      /^Invalid listening event: percent /
    );
    expect(refused(null).status).toBe(400);
    expect(refused({ articleId: 'doc-en', event: 'play', heard: 0 }, 5000).status).toBe(413);
    expect(refused('x'.repeat(1025), 0).status).toBe(413);
  });
  it('takes a body of exactly LISTENING_EVENT_MAX_BYTES, as received or as text, and refuses one byte more', () => {
    const event = { articleId: 'doc-en', event: 'play', heard: 0 };
    expect(readListeningEvent(event, LISTENING_EVENT_MAX_BYTES)).toEqual({ event });
    expect(readListeningEvent(event, LISTENING_EVENT_MAX_BYTES + 1)).toEqual({ refused: expect.objectContaining({ status: 413 }) });
    // JSON allows spaces after the value: the text padded to the limit, then one past it.
    const json = JSON.stringify(event);
    const padded = (bytes: number) => json + ' '.repeat(bytes - Buffer.byteLength(json));
    expect(readListeningEvent(padded(LISTENING_EVENT_MAX_BYTES), 0)).toEqual({ event });
    expect(readListeningEvent(padded(LISTENING_EVENT_MAX_BYTES + 1), 0)).toEqual({ refused: expect.objectContaining({ status: 413 }) });
  });
  it("names percent as what is wrong with a progress event's percent, or with a percent on another event", () => {
    const message = (body: unknown) => (readListeningEvent(body, 10) as { refused: { message: string } }).refused.message;
    expect(message({ articleId: 'doc-en', event: 'progress', heard: 1 })).toMatch(/^Invalid listening event: percent /);
    expect(message({ articleId: 'doc-en', event: 'end', percent: 90, heard: 1 })).toMatch(/^Invalid listening event: percent /);
    // Only 10 to 90 are progress milestones (the end is its own event), and the refusal says so.
    expect(message({ articleId: 'doc-en', event: 'progress', percent: 100, heard: 1 })).toMatch(
      /^Invalid listening event: percent .*10, 20/
    );
    expect(message({ articleId: 'doc-en', event: 'progress', percent: 55, heard: 1 })).toMatch(
      /^Invalid listening event: percent .*10, 20/
    );
  });
});
