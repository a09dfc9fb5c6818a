import type { Core } from '@strapi/strapi';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Admin => ({
  auth: { secret: env('ADMIN_JWT_SECRET')! },
  apiToken: { salt: env('API_TOKEN_SALT')! },
  transfer: { token: { salt: env('TRANSFER_TOKEN_SALT')! } },
  secrets: { encryptionKey: env('ENCRYPTION_KEY')! },
  flags: { nps: false, promoteEE: false },
  // Integration tests run the server without the (separately built) admin bundle.
  serveAdminPanel: env.bool('SERVE_ADMIN_PANEL', true),
});

export default config;
