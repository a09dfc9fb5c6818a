import type { Core } from '@strapi/strapi';
import { restPrefix } from '../http';
import type { z } from 'zod/v3';
import type { ConnectionInfo, SpeechSettings } from '../../../shared/contracts/settings';

/**
 * The plugin's settings in effect: its configuration file, overridden by what an editor saved in
 * Settings -> Speech (in the plugin store). The publish path reads them on every document action,
 * so they are cached in memory for a few seconds. What each feature lets an editor change, and how
 * a saved value applies over the file, is the feature's own (`<feature>/config.ts`); the plugin's
 * assembly (server/src/config/) hands them in as `parts`.
 */

/** What may be saved, how a change lands on what was saved, and what applies. */
export interface SettingsParts<Saved extends object> {
  /** What may be saved: every key optional, each checked. */
  schema: z.ZodType<Saved, z.ZodTypeDef, unknown>;
  /** A change over what was saved before. */
  combine: (saved: Saved, changes: Saved) => Saved;
  /** What was saved, over the configuration file. */
  inEffect: (saved: Saved) => SpeechSettings;
}

/** The configuration file's values that say how this server reaches the speech service. */
export interface ConnectionConfig {
  apiKey: string;
  baseUrl: string;
  webUrl: string;
  /** Empty: the server's public URL + /api/speech/callback. */
  callbackUrl: string;
  voiceSource: ConnectionInfo['voiceSource'];
}

const CACHE_MS = 5_000;

/** The site's public origin (`server.url`), never a request's Host header. */
function publicUrl(strapi: Core.Strapi): string {
  const configured =
    (strapi.config.get('server.absoluteUrl') as string | undefined) || (strapi.config.get('server.url') as string | undefined);
  return (configured || `http://localhost:${strapi.config.get('server.port')}`).replace(/\/+$/, '');
}

export function createSettingsService<Saved extends object>({
  strapi,
  parts,
  connection,
}: {
  strapi: Core.Strapi;
  parts: SettingsParts<Saved>;
  connection: ConnectionConfig;
}) {
  const store = () => strapi.store({ type: 'plugin', name: 'speech' });
  let cached: { value: SpeechSettings; at: number } | null = null;
  const contentApiUrl = () => `${publicUrl(strapi)}${restPrefix(strapi.config.get('api.rest.prefix', '/api'))}`;
  const callbackUrl = () => connection.callbackUrl || `${contentApiUrl()}/speech/callback`;

  async function readSaved(): Promise<Saved> {
    const raw = await store().get({ key: 'settings' });
    const parsed = parts.schema.safeParse(raw ?? {});
    return parsed.success ? parsed.data : ({} as Saved);
  }

  async function readFresh(): Promise<SpeechSettings> {
    const value = parts.inEffect(await readSaved());
    cached = { value, at: Date.now() };
    return value;
  }

  return {
    /** The site's public origin, for the URLs front ends are given. */
    publicUrl: () => publicUrl(strapi),

    /** The site's content API (the public URL and Strapi's REST prefix), where the plugin's public routes are. */
    contentApiUrl,

    /** Where the speech service posts narration results. */
    callbackUrl,

    /** How this server reaches the speech service, as the admin shows it: never the API key itself. */
    connection(): ConnectionInfo {
      return {
        apiKeyConfigured: Boolean(connection.apiKey),
        baseUrl: connection.baseUrl,
        webUrl: connection.webUrl,
        callbackUrl: callbackUrl(),
        voiceSource: connection.voiceSource,
      };
    },

    async get(): Promise<SpeechSettings> {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
      return readFresh();
    },

    /**
     * The settings as stored now, past the cache: for a decision another instance's save must reach
     * at once (the budget: an instance still holding the old limit would hold again what the save
     * released, or send what it held).
     */
    fresh: readFresh,

    async update(changes: Saved): Promise<SpeechSettings> {
      const next = parts.combine(await readSaved(), parts.schema.parse(changes));
      await store().set({ key: 'settings', value: next });
      // What was just written: no second read of the store.
      cached = { value: parts.inEffect(next), at: Date.now() };
      return cached.value;
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
