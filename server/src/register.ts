import type { Core } from '@strapi/strapi';
import { registerRestNarrationParam } from './narration/content-api/rest-narration-param';
import { registerGraphql } from './narration/content-api/graphql';
import { narrateOnPublish } from './narration/narrate-on-publish';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  // Document Service middleware: sees publish, REST auto-publish (create/update with
  // status 'published') and saves of types without draft & publish.
  strapi.documents.use(narrateOnPublish(strapi));
  registerRestNarrationParam(strapi);
  registerGraphql(strapi);
};
