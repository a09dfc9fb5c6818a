import type { Core } from '@strapi/strapi';
import { createSettingsService } from '../../../server/src/settings/service';
import { runtimeSettingsSchema, settingsParts } from '../../../server/src/config';
import { segmentCharactersOf } from '../../../server/src/narration/domain/segments';

/** The settings in effect (GET /speech/settings): the config file, overridden by what was saved from the admin. */

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';

/** Just what the settings service reads of Strapi: the plugin's config, its store, the types' schemas. */
function fakeStrapi(pluginConfig: Record<string, unknown>) {
  const saved = new Map<string, unknown>();
  const strapi = {
    config: { get: (key: string) => (key === 'plugin::speech' ? pluginConfig : undefined) },
    store: () => ({
      get: async ({ key }: { key: string }) => saved.get(key) ?? null,
      set: async ({ key, value }: { key: string; value: unknown }) => void saved.set(key, value),
    }),
    contentType: (uid: string) => ({ uid, kind: 'collectionType', options: { draftAndPublish: true }, attributes: {} }),
  };
  return strapi as unknown as Core.Strapi;
}

/** The settings service as the plugin assembles it (server/src/services/index.ts). */
function settingsService(strapi: Core.Strapi) {
  const connection = { apiKey: '', baseUrl: '', webUrl: '', callbackUrl: '', voiceSource: 'service' as const };
  return createSettingsService({ strapi, parts: settingsParts(strapi), connection });
}

const file = {
  baseUrl: 'https://api.speech.example',
  webUrl: 'https://web.speech.example',
  segmentCharacters: 3_000,
  contentTypes: {
    [ARTICLE]: { textFields: ['body'], narrationMode: 'segmented', segmentCharacters: 1_200 },
    [PAGE]: { textFields: ['content'] },
  },
};

describe('segmented narration in the settings in effect', () => {
  it('says every type’s mode (whole unless segmented) and the global part size; a type’s own size only when it has one', async () => {
    const settings = await settingsService(fakeStrapi(file)).get();
    expect(settings.segmentCharacters).toBe(3_000);
    expect(settings.contentTypes[ARTICLE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: 1_200 });
    expect(settings.contentTypes[PAGE].narrationMode).toBe('whole');
    expect(settings.contentTypes[PAGE]).not.toHaveProperty('segmentCharacters');
  });

  it('takes what is saved from the admin over the file, and keeps the file’s mode for a saved type that names none', async () => {
    const service = settingsService(fakeStrapi(file));
    const saved = await service.update({
      segmentCharacters: 800,
      contentTypes: { [ARTICLE]: { textFields: ['body'] }, [PAGE]: { textFields: ['content'], narrationMode: 'segmented' } },
    });
    expect(saved.segmentCharacters).toBe(800);
    expect(saved.contentTypes[ARTICLE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: 1_200 });
    expect(saved.contentTypes[PAGE]).toMatchObject({ narrationMode: 'segmented' });
    const whole = await service.update({ contentTypes: { [ARTICLE]: { textFields: ['body'], narrationMode: 'whole' } } });
    expect(whole.contentTypes[ARTICLE].narrationMode).toBe('whole');
  });

  it('a saved segmentCharacters: null clears a type’s own size, the file’s included: the global size applies', async () => {
    const service = settingsService(fakeStrapi(file));
    const changes = { contentTypes: { [ARTICLE]: { textFields: ['body'], narrationMode: 'segmented' as const, segmentCharacters: null } } };
    // As the settings route takes it (the controller parses the body with this schema).
    expect(runtimeSettingsSchema.safeParse(changes).success).toBe(true);
    const cleared = await service.update(changes);
    // Said as cleared (null), so that the settings page sends the clear back when it saves the type again.
    expect(cleared.contentTypes[ARTICLE]).toMatchObject({ narrationMode: 'segmented', textFields: ['body'], segmentCharacters: null });
    // What the publish path reads: the global size, not the file's 1,200.
    expect(segmentCharactersOf(cleared.contentTypes[ARTICLE], cleared.segmentCharacters)).toBe(3_000);
    // Left out, the file's size applies again; a size of the type's own still wins.
    const omitted = await service.update({ contentTypes: { [ARTICLE]: { textFields: ['body'] } } });
    expect(omitted.contentTypes[ARTICLE].segmentCharacters).toBe(1_200);
    const own = await service.update({ contentTypes: { [ARTICLE]: { textFields: ['body'], segmentCharacters: 900 } } });
    expect(own.contentTypes[ARTICLE].segmentCharacters).toBe(900);
    // Only null clears: other values are refused as before.
    for (const size of [0, 199, '900', 1_000.5]) {
      expect(
        runtimeSettingsSchema.safeParse({ contentTypes: { [ARTICLE]: { textFields: ['body'], segmentCharacters: size } } }).success
      ).toBe(false);
    }
  });

  it('defaults to 2,000 characters when the file says nothing', async () => {
    const settings = await settingsService(fakeStrapi({ baseUrl: file.baseUrl, webUrl: file.webUrl })).get();
    expect(settings.segmentCharacters).toBe(2_000);
  });
});
