import * as React from 'react';
import { useGetSpeechNarratedTypesQuery } from '../api/speechApi';
import { PLUGIN_ID } from '../utils/pluginId';

/**
 * The plugin's initializer (`registerPlugin({ initializer })`): the admin renders it once per
 * login, before its main layout. It starts loading the narrated types, so the list view's column
 * hook knows them before the content manager asks, and lets the admin go on at once (the request
 * continues; its answer stays in the query cache for the session).
 */
export const NarratedTypesLoader = ({ setPlugin }: { setPlugin: (pluginId: string) => void }) => {
  useGetSpeechNarratedTypesQuery();
  React.useEffect(() => setPlugin(PLUGIN_ID), [setPlugin]);
  return null;
};
