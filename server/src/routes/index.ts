import { adminRoutes as backfills } from '../backfill/routes';
import { adminRoutes as credits } from '../credits/routes';
import { adminRoutes as lexicon } from '../lexicon/routes';
import { adminRoutes as narrationAdmin, contentApiRoutes as narrationPublic } from '../narration/routes';
import { contentApiRoutes as feeds } from '../feeds/routes';
import { adminRoutes as insightsAdmin, contentApiRoutes as insightsPublic } from '../insights/routes';
import { contentApiRoutes as metrics } from '../metrics/routes';
import { contentApiRoutes as player } from '../player/routes';
import { contentApiRoutes as callback } from '../queue/routes';
import { adminRoutes as queuePage } from '../queue-page/routes';
import { adminRoutes as settings } from '../settings-page/routes';
import { adminRoutes as speechToText } from '../speech-to-text/routes';
import { adminRoutes as voices } from '../voices/routes';

/** Every feature's routes, gathered: admin routes under /speech, public ones under /api/speech. */
export default {
  admin: {
    type: 'admin',
    routes: [
      ...settings,
      ...voices,
      ...narrationAdmin,
      ...lexicon,
      ...speechToText,
      ...credits,
      ...insightsAdmin,
      ...queuePage,
      ...backfills,
    ],
  },
  'content-api': { type: 'content-api', routes: [...callback, ...narrationPublic, ...player, ...feeds, ...insightsPublic, ...metrics] },
};
