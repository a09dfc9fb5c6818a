import { execFileSync } from 'child_process';
import path from 'path';
import { pathToFileURL } from 'url';
import { Mp3DurationReader } from '../../../server/src/audio/mp3';
import { Mp3Sniffer } from '../../../server/src/audio/mp3-sniff';

/** Test MP3s: real frames from the emulator's encoder, and ID3v2 tags written here from the ID3 specs. */

const EMULATOR_MP3_MODULE = path.resolve(__dirname, '../../../emulator/src/speech/mp3.mjs');

/**
 * A real MP3 as the emulator serves narrations: a tone encoded by the emulator's own `encodeMp3`
 * (LAME in WASM, 22.05 kHz mono, 48 kbps; no ID3 tag). Run in a child process because it is an ES module.
 */
export function emulatorMp3(seconds = 1): Buffer {
  const script = `
    import { encodeMp3 } from ${JSON.stringify(pathToFileURL(EMULATOR_MP3_MODULE).href)};
    const rate = 22050;
    const samples = new Int16Array(Math.round(rate * ${Number(seconds)}));
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
    process.stdout.write((await encodeMp3(samples, rate)).toString('base64'));
  `;
  return Buffer.from(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }), 'base64');
}

function syncsafe(value: number): Buffer {
  return Buffer.from([(value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f]);
}

/**
 * An ID3v2 tag with a title frame, zero padding up to `bodyBytes`, and (v2.4 only) an optional footer.
 */
export function id3v2Tag(options: { title?: string; bodyBytes?: number; version?: 3 | 4; footer?: boolean } = {}): Buffer {
  const version = options.version ?? 3;
  const text = Buffer.concat([Buffer.from([0x00]), Buffer.from(options.title ?? 'Narration', 'latin1')]);
  const frameSize = version === 4 ? syncsafe(text.length) : Buffer.from([0, 0, 0, text.length]);
  const frame = Buffer.concat([Buffer.from('TIT2', 'latin1'), frameSize, Buffer.from([0, 0]), text]);
  const bodyBytes = Math.max(options.bodyBytes ?? 256, frame.length);
  const body = Buffer.concat([frame, Buffer.alloc(bodyBytes - frame.length)]);
  const flags = options.footer ? 0x10 : 0x00;
  const header = Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([version, 0, flags]), syncsafe(bodyBytes)]);
  const footer = options.footer
    ? Buffer.concat([Buffer.from('3DI', 'latin1'), Buffer.from([version, 0, flags]), syncsafe(bodyBytes)])
    : Buffer.alloc(0);
  return Buffer.concat([header, body, footer]);
}

/** What a misconfigured media host answers with a 200: a page, not audio. */
export const HTML_PAGE = Buffer.from(
  '<!doctype html><html><head><title>Not found</title></head><body><h1>Sorry</h1>' +
    '<p>The file you asked for is not here.</p>'.repeat(40) +
    '</body></html>'
);

/** The sniffer's verdict on a whole buffer at once. */
export function looksLikeMp3(head: Buffer): boolean {
  const sniffer = new Mp3Sniffer(Number.MAX_SAFE_INTEGER);
  sniffer.push(head);
  return sniffer.end().kind === 'mp3';
}

/** The duration reader's answer for a whole buffer at once. */
export function mp3DurationSeconds(bytes: Uint8Array): number | null {
  const reader = new Mp3DurationReader();
  reader.push(bytes);
  return reader.end();
}
