import { adminOnly, adminRoute, type PluginRoute } from '../access';

/** Credits (admin routes under /speech): the usage view and the ledger, read with the settings' read permission. A narration the budget holds is let through by narration's routes. */
export const adminRoutes: PluginRoute[] = [
  // Public contract: other implementations of the service read `monthToDate.credits` here.
  adminRoute('admin-credits.usage', adminOnly('settings.read')),
  adminRoute('admin-credits.ledgerCsv', adminOnly('settings.read')),
];
