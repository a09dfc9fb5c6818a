import type { Core } from '@strapi/strapi';
import { registerRestNarrationParam } from './content-api/rest-narration-param';
import { registerGraphql } from './graphql';
import { narrateOnPublish } from './middlewares/narrate-on-publish';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  // Document Service middleware: sees publish, REST auto-publish (create/update with
  // status 'published') and saves of types without draft & publish.
  strapi.documents.use(narrateOnPublish(strapi) as never);
  registerRestNarrationParam(strapi);
  registerGraphql(strapi);
};
