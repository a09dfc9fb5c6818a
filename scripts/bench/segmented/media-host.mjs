/**
 * The segmented bench's own media host (step 2): it stands in for the speech service's file host,
 * serving a part's MP3 (made by ffmpeg's LAME at 128 kbps, 44.1 kHz stereo, a tone, with the ID3v2
 * tag and LAME Info frame ffmpeg writes), or the whole hour, and an SRT of a cue every 3 s, under any name:
 * `/parts/<articleId>.mp3` and `.srt`. Every download is recorded (path, start, end, bytes), so the
 * bench can tell when the plugin downloaded what.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from '../../bench-support.mjs';
import { JOIN_KBPS } from './settings.mjs';

/** An SRT of a cue every 3 s over `seconds`, as a speech service times a part's sentences. */
function partSrt(seconds) {
  const time = (ms) => {
    const pad = (value, width = 2) => String(Math.floor(value)).padStart(width, '0');
    return `${pad(ms / 3_600_000)}:${pad((ms / 60_000) % 60)}:${pad((ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
  };
  const cues = [];
  for (let start = 0, index = 1; start < seconds * 1000; start += 3000, index += 1) {
    const end = Math.min(start + 2900, seconds * 1000);
    cues.push(`${index}\n${time(start)} --> ${time(end)}\nSentence ${index} of this part: a few words read aloud.\n`);
  }
  return cues.join('\n');
}

export async function startMediaHost() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-bench-media-'));
  onCleanup('media folder', () => rmSync(dir, { recursive: true, force: true }));
  /** The part served now: its MP3 file, size and SRT. */
  let part = null;
  const downloads = [];

  const server = http.createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://media.test').pathname;
    const download = { path: name, startedAt: Date.now(), endedAt: null, bytes: 0 };
    downloads.push(download);
    res.on('close', () => (download.endedAt = Date.now()));
    if (!part || !name.startsWith('/parts/')) {
      res.writeHead(404).end();
      return;
    }
    if (name.endsWith('.srt')) {
      download.bytes = Buffer.byteLength(part.srt);
      res.writeHead(200, { 'content-type': 'application/x-subrip', 'content-length': String(download.bytes) }).end(part.srt);
      return;
    }
    download.bytes = part.bytes;
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(part.bytes) });
    createReadStream(part.mp3).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup('media host', () => new Promise((resolve) => server.close(resolve)));
  const origin = `http://127.0.0.1:${server.address().port}`;

  return {
    origin,
    downloads,
    /**
     * From now on, every file served is `copies` parts of `seconds` each: one part made by ffmpeg
     * (once per length), or that part looped `copies` times into one MP3 (ffmpeg -stream_loop, no
     * re-encoding: the whole article of the whole-mode control). Answers the file's bytes.
     */
    serve(seconds, copies = 1) {
      const one = path.join(dir, `part-${seconds}s.mp3`);
      if (!existsSync(one)) {
        execFileSync('ffmpeg', [
          ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}:sample_rate=44100`],
          ...['-ac', '2', '-c:a', 'libmp3lame', '-b:a', `${JOIN_KBPS}k`, one],
        ]);
      }
      const mp3 = copies === 1 ? one : path.join(dir, `whole-${copies}x${seconds}s.mp3`);
      if (!existsSync(mp3)) execFileSync('ffmpeg', ['-v', 'error', '-y', '-stream_loop', String(copies - 1), '-i', one, '-c', 'copy', mp3]);
      part = { mp3, bytes: statSync(mp3).size, srt: partSrt(seconds * copies) };
      return part.bytes;
    },
    urlsOf: (articleId) => ({
      audioFile: `${origin}/parts/${encodeURIComponent(articleId)}.mp3`,
      srtFile: `${origin}/parts/${encodeURIComponent(articleId)}.srt`,
    }),
  };
}
