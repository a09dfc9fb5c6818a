/**
 * A plain-HTTP forward proxy for Chromium that slows chosen request bodies down to a fixed rate.
 *
 * Why: an upload from the browser to Strapi on the same machine takes a few milliseconds, so the
 * Transcribe page's progress bar goes from 0 to 100 with nothing in between, and Chromium's DevTools
 * network throttling does not slow XMLHttpRequest uploads. Reading the body slowly at the proxy makes
 * Chromium's socket fill up, which is exactly what a slow uplink does, so the browser's own upload
 * progress events report the real in-between values.
 *
 * Chromium is pointed at it with Playwright's `proxy` launch option (Playwright also proxies loopback
 * addresses, which Chromium bypasses by default). Only plain `http://` is handled; nothing here uses TLS.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';

export interface ThrottlingProxy {
  url: string;
  /** Request bodies slowed down so far, as "METHOD /path bytes". */
  throttled: string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade'];
const SLICE_BYTES = 16 * 1024;

/** Yields the body in small slices, no faster than `bytesPerSecond` on average. */
async function* atRate(source: AsyncIterable<Buffer>, bytesPerSecond: number) {
  const started = Date.now();
  let passed = 0;
  for await (const chunk of source) {
    for (let offset = 0; offset < chunk.length; offset += SLICE_BYTES) {
      const slice = chunk.subarray(offset, offset + SLICE_BYTES);
      passed += slice.length;
      const wait = started + (passed / bytesPerSecond) * 1000 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      yield slice;
    }
  }
}

export async function startThrottlingProxy(options: {
  bytesPerSecond: number;
  throttle: (method: string, path: string) => boolean;
}): Promise<ThrottlingProxy> {
  const throttled: string[] = [];
  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      // A forward proxy receives the absolute URL in the request line.
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('only http');
    } catch {
      res.writeHead(400).end('this proxy forwards absolute http:// URLs only');
      return;
    }
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = http.request(
      { host: target.hostname, port: target.port || 80, method: req.method, path: `${target.pathname}${target.search}`, headers },
      (answer) => {
        const answerHeaders = { ...answer.headers };
        for (const name of HOP_BY_HOP) delete answerHeaders[name];
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
        pipeline(answer, res).catch(() => res.destroy());
      }
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end('upstream failed');
      else res.destroy();
    });
    const slow = options.throttle(req.method ?? 'GET', target.pathname);
    if (slow) {
      const size = Number(req.headers['content-length'] ?? 0);
      throttled.push(`${req.method} ${target.pathname} ${size}`);
      pipeline(req, (source: AsyncIterable<Buffer>) => atRate(source, options.bytesPerSecond), upstream).catch(() => upstream.destroy());
    } else {
      pipeline(req, upstream).catch(() => upstream.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    throttled,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
