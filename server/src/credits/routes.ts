import { adminOnly, adminRoute, type PluginRoute } from '../access/permissions';

/** Credits (admin routes under /speech): the ledger is read with the settings' read permission, the budget changed with theirs. */
export const adminRoutes: PluginRoute[] = [
  // Public contract (issue 24): other implementations of the service read `monthToDate.credits` here.
  adminRoute('admin-credits.usage', adminOnly('settings.read')),
  adminRoute('admin-credits.ledgerCsv', adminOnly('settings.read')),
  adminRoute('admin-credits.letThrough', adminOnly('settings.update')),
];
