/** GET/HEAD /media/<id>.mp3|.srt — the narration files the callbacks point to (public, no auth). */
import { errors } from './http/errors.mjs';
import { sendBytes } from './http/respond.mjs';

/** @param {import('./http/router.mjs').RequestContext} ctx */
export async function serveMedia(ctx) {
  const file = ctx.runtime.state.media.get(ctx.params.file);
  if (!file) throw errors.notFound(`Media file "${ctx.params.file}" does not exist.`);
  const headOnly = ctx.req.method === 'HEAD';
  // A slow media host (a knob): clients that download results must not hold anything on it.
  const { mediaDelayMs } = ctx.runtime.knobs;
  if (mediaDelayMs > 0) await ctx.runtime.state.sleep(mediaDelayMs);
  const headers = { 'Content-Type': file.contentType, 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store' };

  // Single byte ranges, so browsers can seek in the audio.
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(ctx.req.headers.range ?? ''));
  if (range && (range[1] || range[2])) {
    const size = file.bytes.length;
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      ctx.res.writeHead(416, { 'Content-Range': `bytes */${size}` });
      ctx.res.end();
      return;
    }
    sendBytes(
      ctx.res,
      206,
      file.bytes.subarray(start, end + 1),
      { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}` },
      headOnly
    );
    return;
  }
  sendBytes(ctx.res, 200, file.bytes, headers, headOnly);
}
