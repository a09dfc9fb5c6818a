import { PLUGIN_ID } from './pluginId';

export const getTranslation = (id: string) => `${PLUGIN_ID}.${id}`;
