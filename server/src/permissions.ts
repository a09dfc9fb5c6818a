/** The plugin's RBAC actions (Settings -> Roles). Uids become `plugin::speech.<uid>`. */
export const PERMISSION_ACTIONS = [
  { section: 'plugins', displayName: 'Read settings', uid: 'settings.read', pluginName: 'speech' },
  { section: 'plugins', displayName: 'Change settings', uid: 'settings.update', pluginName: 'speech' },
  { section: 'plugins', displayName: 'Narrate and regenerate articles', uid: 'narrate', pluginName: 'speech' },
  { section: 'plugins', displayName: 'Transcribe audio', uid: 'transcribe', pluginName: 'speech' },
] as const;

export const action = (uid: (typeof PERMISSION_ACTIONS)[number]['uid']) => `plugin::speech.${uid}`;
