import type { Core } from '@strapi/strapi';
import { createSettingsService } from '../../server/src/settings/service';

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
    const settings = await createSettingsService({ strapi: fakeStrapi(file) }).get();
    expect(settings.segmentCharacters).toBe(3_000);
    expect(settings.contentTypes[ARTICLE]).toMatchObject({ narrationMode: 'segmented', segmentCharacters: 1_200 });
    expect(settings.contentTypes[PAGE].narrationMode).toBe('whole');
    expect(settings.contentTypes[PAGE]).not.toHaveProperty('segmentCharacters');
  });

  it('takes what is saved from the admin over the file, and keeps the file’s mode for a saved type that names none', async () => {
    const service = createSettingsService({ strapi: fakeStrapi(file) });
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

  it('defaults to 2,000 characters when the file says nothing', async () => {
    const settings = await createSettingsService({ strapi: fakeStrapi({ baseUrl: file.baseUrl, webUrl: file.webUrl }) }).get();
    expect(settings.segmentCharacters).toBe(2_000);
  });
});
