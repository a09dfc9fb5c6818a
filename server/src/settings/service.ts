import type { Core } from '@strapi/strapi';
import { restPrefix } from '../http';
import type { z } from 'zod/v3';
import type { ConnectionInfo, SpeechSettings } from '../../../shared/contracts/settings';

/**
 * The configuration file overridden by what editors saved, cached a few seconds because the publish
 * path reads it on every document action. Each feature's `config.ts` says how its saved values apply.
 */

export interface SettingsParts<Saved extends object> {
  schema: z.ZodType<Saved, z.ZodTypeDef, unknown>;
  combine: (saved: Saved, changes: Saved) => Saved;
  inEffect: (saved: Saved) => SpeechSettings;
}

export interface ConnectionConfig {
  apiKey: string;
  baseUrl: string;
  webUrl: string;
  /** Empty: the server's public URL + /api/speech/callback. */
  callbackUrl: string;
  voiceSource: ConnectionInfo['voiceSource'];
}

const CACHE_MS = 5_000;

/** `server.url`, never a request's Host header. */
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
    publicUrl: () => publicUrl(strapi),

    contentApiUrl,

    callbackUrl,

    /** Never the API key itself. */
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

    /** Past the cache, for the budget: an instance holding the old limit would hold what a save released. */
    fresh: readFresh,

    async update(changes: Saved): Promise<SpeechSettings> {
      const next = parts.combine(await readSaved(), parts.schema.parse(changes));
      await store().set({ key: 'settings', value: next });
      cached = { value: parts.inEffect(next), at: Date.now() };
      return cached.value;
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
