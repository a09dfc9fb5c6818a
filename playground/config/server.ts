import type { Core } from '@strapi/strapi';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Server => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  // The public URL is what the speech service calls back; it must be reachable from the service.
  url: env('PUBLIC_URL', `http://localhost:${env.int('PORT', 1337)}`),
  // Tests point this at a temporary folder so their uploads never mix with the demo's.
  dirs: { public: env('PUBLIC_DIR', './public') },
  app: {
    keys: env.array('APP_KEYS')!,
  },
  // Behind a reverse proxy, Koa reads the client's address from X-Forwarded-For.
  proxy: { koa: env.bool('SERVER_PROXY_KOA', false) },
});

export default config;
