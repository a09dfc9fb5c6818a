import callback from './callback';
import narrations from './narrations';
import adminNarrations from './admin-narrations';
import adminSettings from './admin-settings';
import adminTranscriptions from './admin-transcriptions';
import adminSpeech from './admin-speech';

export default { callback, narrations, 'admin-narrations': adminNarrations, 'admin-settings': adminSettings, 'admin-transcriptions': adminTranscriptions, 'admin-speech': adminSpeech };
