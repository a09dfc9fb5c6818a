import admin from './admin';
import contentApi from './content-api';
import adminTranscriptions from './admin-transcriptions';

export default { 'content-api': contentApi, admin, 'admin-transcriptions': adminTranscriptions };
