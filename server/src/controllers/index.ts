import callback from './callback';
import narrations from './narrations';
import adminNarrations from './admin-narrations';

export default { callback, narrations, 'admin-narrations': adminNarrations };
