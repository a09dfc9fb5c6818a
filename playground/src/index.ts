import type { Core } from '@strapi/strapi';

export default {
  register() {},

  /** The playground narrates articles in English and Arabic: make sure both locales exist. */
  async bootstrap({ strapi }: { strapi: Core.Strapi }) {
    const locales = strapi.plugin('i18n').service('locales');
    const existing: Array<{ code: string }> = await locales.find();
    if (!existing.some((locale) => locale.code === 'ar')) {
      await locales.create({ code: 'ar', name: 'Arabic (ar)' });
    }
  },
};
