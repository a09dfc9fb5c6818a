import http from 'node:http';
import type net from 'node:net';

/**
 * A local HTTP server standing in for a front end's webhook endpoint (a Next.js or Astro
 * revalidation route): it answers 200 and keeps every delivery, in order.
 */

export interface Delivery {
  /** The `X-Strapi-Event` header Strapi's webhook runner sends. */
  header: string | undefined;
  body: any;
}

export async function startWebhookReceiver(host = '127.0.0.1') {
  const deliveries: Delivery[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk.toString()));
    request.on('end', () => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* kept as text: a test then shows what arrived */
      }
      deliveries.push({ header: request.headers['x-strapi-event'] as string | undefined, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${host}:${port}/revalidate`,
    deliveries,
    /** The deliveries of one event about one article. */
    of: (event: string, articleId: string) =>
      deliveries.filter((delivery) => delivery.body?.event === event && delivery.body?.narration?.articleId === articleId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
