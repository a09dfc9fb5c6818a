import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '@strapi/strapi';

/**
 * The speech plugin is loaded from the repository root (an absolute path: Strapi resolves a
 * relative one from its own files first), the same package that
 * gets published, so the playground always runs the code under development.
 * Every speech setting comes from the environment, so the app can be pointed at the emulator
 * or at the real service without editing files.
 */
// The server loads the compiled playground/dist/config/plugins.js, but `strapi build` (the admin
// bundle) loads this file from playground/config: find the repository root from either place.
const PLUGIN_ROOT =
  [path.resolve(__dirname, '..', '..', '..'), path.resolve(__dirname, '..', '..')].find((dir) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).strapi?.name === 'speech';
    } catch {
      return false;
    }
  }) ?? path.resolve(__dirname, '..', '..', '..');

/**
 * `SPEECH_LOCALE_VOICES=ar=ar-female-1,en=en-female-1` -> `{ ar: 'ar-female-1', en: 'en-female-1' }`.
 * An entry without a voice is passed on as an empty one, so the plugin's validator names it.
 */
function parseLocaleVoices(value: string): Record<string, string> {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [locale, ...voice] = entry.split('=');
      return [locale.trim(), voice.join('=').trim()] as const;
    });
  return Object.fromEntries(entries);
}

/**
 * The Media Library's storage: Strapi's S3 provider (`@strapi/provider-upload-aws-s3`) when
 * `UPLOAD_PROVIDER=aws-s3`, configured as the README's snippet for S3-compatible stores (an
 * endpoint, path-style URLs, checksums only where the S3 API requires them; public-read objects
 * unless S3_ACL=private); the local provider (public/uploads) otherwise, which the demo and every
 * test but tests/integration/s3-storage.test.ts use.
 */
function uploadConfig(env: Core.Config.Shared.ConfigParams['env']): Core.Config.Plugin {
  const provider = env('UPLOAD_PROVIDER', 'local');
  if (provider === 'local') return {};
  if (provider !== 'aws-s3') throw new Error(`UPLOAD_PROVIDER must be local or aws-s3, not ${provider}`);
  return {
    upload: {
      config: {
        provider: 'aws-s3',
        providerOptions: {
          s3Options: {
            endpoint: env('S3_ENDPOINT'),
            region: env('S3_REGION', 'us-east-1'),
            forcePathStyle: true,
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
            credentials: { accessKeyId: env('S3_ACCESS_KEY_ID'), secretAccessKey: env('S3_SECRET_ACCESS_KEY') },
            // `private`: the objects are read through URLs the provider signs (the plugin's redirects too).
            params: { Bucket: env('S3_BUCKET'), ACL: env('S3_ACL', 'public-read') },
          },
        },
      },
    },
  };
}

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Plugin => {
  const port = env.int('PORT', 1337);
  const publicUrl = env('PUBLIC_URL', `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    ...uploadConfig(env),
    // Apollo turns introspection off in production; the tests read the schema with it on. The tests
    // that do not read GraphQL turn the plugin off (PLAYGROUND_GRAPHQL=false), as in an app without it.
    graphql: {
      enabled: env.bool('PLAYGROUND_GRAPHQL', true),
      config: { apolloServer: { introspection: env.bool('GRAPHQL_INTROSPECTION', false) } },
    },
    speech: {
      enabled: true,
      resolve: PLUGIN_ROOT,
      config: {
        apiKey: env('SPEECH_API_KEY', ''),
        // No emulator default here: the plugin's decides (the emulator outside production, a refusal to start in production).
        baseUrl: env('SPEECH_BASE_URL'),
        webUrl: env('SPEECH_WEB_URL', env('SPEECH_BASE_URL')),
        callbackUrl: env('SPEECH_CALLBACK_URL', `${publicUrl}/api/speech/callback`),
        defaultVoiceId: env('SPEECH_DEFAULT_VOICE', 'en-female-1'),
        localeVoices: parseLocaleVoices(env('SPEECH_LOCALE_VOICES', '')),
        preprocessType: env('SPEECH_PREPROCESS_TYPE', '0'),
        segmentCharacters: env.int('SPEECH_SEGMENT_CHARACTERS', 2_000),
        mediaHosts: env.array('SPEECH_MEDIA_HOSTS', []),
        maxInFlight: env.int('SPEECH_MAX_IN_FLIGHT', 3),
        maxAudioBytes: env.int('SPEECH_MAX_AUDIO_BYTES', 200 * 1024 * 1024),
        creditsPauseMs: env.int('SPEECH_CREDITS_PAUSE_MS', 10 * 60_000),
        maxAttempts: env.int('SPEECH_MAX_ATTEMPTS', 3),
        callbackTimeoutMs: env.int('SPEECH_CALLBACK_TIMEOUT_MS', 15 * 60_000),
        noAudioGraceMs: env.int('SPEECH_NO_AUDIO_GRACE_MS', 60_000),
        pollIntervalMs: env.int('SPEECH_POLL_INTERVAL_MS', 2_000),
        leaseMs: env.int('SPEECH_LEASE_MS', 60_000),
        reconcileIntervalMs: env.int('SPEECH_RECONCILE_INTERVAL_MS', 5 * 60_000),
        reconcileSettleMs: env.int('SPEECH_RECONCILE_SETTLE_MS', 2 * 60_000),
        downloadTimeoutMs: env.int('SPEECH_DOWNLOAD_TIMEOUT_MS', 120_000),
        sttPollIntervalMs: env.int('SPEECH_STT_POLL_MS', 5_000),
        // Podcast feeds (JSON): channel details, limit, max age; the tests set their own.
        feeds: env.json('SPEECH_FEEDS', {}),
        // The monthly credit budget (JSON: { monthlyCredits, timeZone, contentTypes }); none by default.
        budget: env.json('SPEECH_BUDGET', {}),
        // Listening insights (JSON: { enabled, flushSeconds, retentionDays }); on by default.
        insights: env.json('SPEECH_INSIGHTS', {}),
        // Verified narration (JSON: { minWordAccuracy, maxAttempts, maxWaitMs }); which types verify is in contentTypes.
        verification: env.json('SPEECH_VERIFICATION', {}),
        // Prometheus metrics (JSON: { enabled, token }); off by default.
        metrics: env.json('SPEECH_METRICS', {}),
        // Archive backfill (JSON: { backlog, intervalMs }); the backlog is about a day of the queue's drain by default.
        backfill: env.json('SPEECH_BACKFILL', {}),
        // SPEECH_CONTENT_TYPES (JSON) replaces the whole map; the tests use it to try bad values.
        contentTypes: env.json('SPEECH_CONTENT_TYPES', {
          'api::article.article': { titleField: 'title', textFields: ['summary', 'body'], trigger: 'publish' },
          'api::page.page': { titleField: 'title', textFields: ['content'], trigger: 'save' },
          // No trigger: the type decides (notes have no draft & publish, the homepage has).
          'api::note.note': { titleField: 'title', textFields: ['text'] },
          'api::homepage.homepage': { titleField: 'title', textFields: ['intro'] },
        }),
      },
    },
  };
};

export default config;
