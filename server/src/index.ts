import type { Core } from '@strapi/strapi';
import bootstrap from './bootstrap';
import config from './config';
import contentTypes from './content-types';
import controllers from './controllers';
import destroy from './destroy';
import register from './register';
import routes from './routes';
import services from './services';
import { installUploadGuard } from './speech-to-text/upload-guard';
import { installBodyGuard } from './speech-to-text/body-guard';
import { installListeningGuard } from './insights/listening-guard';

export default {
  register(args: { strapi: Core.Strapi }) {
    register(args);
    installBodyGuard(args.strapi); // ahead of the body parser: no multipart bodies left on disk for the plugin's routes
    // Refuses transcription uploads over 50 MB before the body parser writes them to disk.
    installUploadGuard(args.strapi);
    // Rates per network on the listening routes, and an event's body read to 1 KB at most, before the body parser.
    installListeningGuard(args.strapi);
  },
  bootstrap,
  destroy,
  config,
  contentTypes,
  controllers,
  routes,
  services,
  policies: {},
  middlewares: {},
};
