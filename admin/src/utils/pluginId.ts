export const PLUGIN_ID = 'speech';
