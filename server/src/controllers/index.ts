import callback from './callback';
import narrations from './narrations';
import adminNarrations from './admin-narrations';
import adminSettings from './admin-settings';

export default { callback, narrations, 'admin-narrations': adminNarrations, 'admin-settings': adminSettings };
