import type { Core } from '@strapi/strapi';

/** What most sites grant anonymous readers: articles are public; pages stay closed. */
const PUBLIC_ACTIONS = ['api::article.article.find', 'api::article.article.findOne'];

export default {
  register() {},

  async bootstrap({ strapi }: { strapi: Core.Strapi }) {
    // The playground narrates articles in English and Arabic: make sure both locales exist.
    const locales = strapi.plugin('i18n').service('locales');
    const existing: Array<{ code: string }> = await locales.find();
    if (!existing.some((locale) => locale.code === 'ar')) {
      await locales.create({ code: 'ar', name: 'Arabic (ar)' });
    }

    // The Public role may read articles (so their narrations are public too) and nothing else.
    const publicRole = (await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } })) as {
      id: number;
    } | null;
    if (publicRole) {
      const permissions = strapi.db.query('plugin::users-permissions.permission');
      for (const action of PUBLIC_ACTIONS) {
        if (!(await permissions.findOne({ where: { action, role: publicRole.id } }))) {
          await permissions.create({ data: { action, role: publicRole.id } });
        }
      }
    }
  },
};
