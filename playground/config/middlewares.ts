import type { Core } from '@strapi/strapi';

/**
 * With the S3 provider (UPLOAD_PROVIDER=aws-s3, see plugins.ts) the admin plays and shows files
 * from the bucket's origin, which Strapi's Content Security Policy must allow (the README's
 * snippet); otherwise Strapi's defaults.
 */
function security(env: Core.Config.Shared.ConfigParams['env']) {
  if (env('UPLOAD_PROVIDER', 'local') !== 'aws-s3') return 'strapi::security';
  const bucketOrigin = new URL(env('S3_ENDPOINT', '')).origin;
  return {
    name: 'strapi::security',
    config: {
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'connect-src': ["'self'", 'https:', bucketOrigin],
          'img-src': ["'self'", 'data:', 'blob:', 'market-assets.strapi.io', bucketOrigin],
          'media-src': ["'self'", 'data:', 'blob:', 'market-assets.strapi.io', bucketOrigin],
        },
      },
    },
  };
}

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Middlewares => [
  'strapi::logger',
  'strapi::errors',
  security(env),
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];

export default config;
