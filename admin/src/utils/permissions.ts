/** The plugin's RBAC actions (server/src/permissions.ts). Module constants: useRBAC compares them by value on every render. */
export const PERMISSIONS = {
  readSettings: [{ action: 'plugin::speech.settings.read', subject: null }],
  updateSettings: [{ action: 'plugin::speech.settings.update', subject: null }],
  narrate: [{ action: 'plugin::speech.narrate', subject: null }],
  transcribe: [{ action: 'plugin::speech.transcribe', subject: null }],
  /** Strapi's own webhooks permissions (Settings -> Webhooks), which its /admin/webhooks routes check. */
  webhooks: [
    { action: 'admin::webhooks.read', subject: null },
    { action: 'admin::webhooks.update', subject: null },
    { action: 'admin::webhooks.create', subject: null },
  ],
};
