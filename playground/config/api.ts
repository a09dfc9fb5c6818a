import type { Core } from '@strapi/strapi';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Api => ({
  rest: {
    // The content API's prefix; a test moves it to check that the plugin follows.
    prefix: env('API_REST_PREFIX', '/api'),
    defaultLimit: 25,
    maxLimit: 100,
    withCount: true,
    strictParams: true,
  },
  documents: {
    strictParams: true,
    strictRelations: true,
  },
});

export default config;
