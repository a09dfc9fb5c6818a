import { adminOnly, adminRoute, type PluginRoute } from '../access';

/** Read with the settings' read permission: the figures are the site's spending. */
export const adminRoutes: PluginRoute[] = [
  // Public contract: other implementations of the service read `monthToDate.credits` here.
  adminRoute('admin-credits.usage', adminOnly('settings.read')),
  adminRoute('admin-credits.ledgerCsv', adminOnly('settings.read')),
];
