import callback from './callback';
import feeds from './feeds';
import narrations from './narrations';
import adminNarrations from './admin-narrations';
import adminSettings from './admin-settings';
import adminTranscriptions from './admin-transcriptions';
import adminSpeech from './admin-speech';
import adminLexicon from './admin-lexicon';
import player from './player';

export default {
  callback,
  narrations,
  feeds,
  'admin-narrations': adminNarrations,
  'admin-settings': adminSettings,
  'admin-transcriptions': adminTranscriptions,
  'admin-speech': adminSpeech,
  'admin-lexicon': adminLexicon,
  player,
};
