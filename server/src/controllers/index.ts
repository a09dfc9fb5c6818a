import type { AdminHandler } from '../../../shared/contracts/routes';
import adminBackfills from '../backfill/admin.controller';
import adminCredits from '../credits/admin.controller';
import adminLexicon from '../lexicon/admin.controller';
import adminNarrations from '../narration/admin.controller';
import callback from '../queue/callback/callback.controller';
import narrations from '../narration/public.controller';
import feeds from '../feeds/controller';
import adminInsights from '../insights/admin.controller';
import insightsEvents from '../insights/events.controller';
import metrics from '../metrics/controller';
import player from '../player/controller';
import adminQueue from '../queue-page/admin.controller';
import adminSettings from '../settings-page/admin.controller';
import adminTranscriptions from '../speech-to-text/admin.controller';
import adminVoices from '../voices/admin.controller';

/** Every feature's controllers, by the name their routes' handlers use. */
const controllers = {
  callback,
  narrations,
  feeds,
  player,
  metrics,
  'insights-events': insightsEvents,
  'admin-narrations': adminNarrations,
  'admin-credits': adminCredits,
  'admin-insights': adminInsights,
  'admin-queue': adminQueue,
  'admin-backfills': adminBackfills,
  'admin-settings': adminSettings,
  'admin-transcriptions': adminTranscriptions,
  'admin-voices': adminVoices,
  'admin-lexicon': adminLexicon,
};

type Controllers = typeof controllers;
type ActionsOf<Controller> = Controller extends (...args: never[]) => infer Actions ? keyof Actions : keyof Controller;
/** Every `controller.action` a route may name. */
export type Handler = { [Name in keyof Controllers & string]: `${Name}.${ActionsOf<Controllers[Name]> & string}` }[keyof Controllers &
  string];

/** Fails to compile when the routes' table (shared/contracts/routes.ts) names a handler no controller has. */
type Holds<Condition extends true> = Condition;
export type AdminRoutesAnswered = Holds<[Exclude<AdminHandler, Handler>] extends [never] ? true : false>;

export default controllers;
