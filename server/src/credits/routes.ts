import { adminOnly, type PluginRoute } from '../access/permissions';

/** Credits (admin routes under /speech): the ledger is read with the settings' read permission, the budget changed with theirs. */
export const adminRoutes: PluginRoute[] = [
  // Public contract (issue 24): other implementations of the service read `monthToDate.credits` here.
  { method: 'GET', path: '/usage', handler: 'admin-credits.usage', config: adminOnly('settings.read') },
  { method: 'GET', path: '/usage/ledger.csv', handler: 'admin-credits.ledgerCsv', config: adminOnly('settings.read') },
  { method: 'POST', path: '/narrations/let-through', handler: 'admin-credits.letThrough', config: adminOnly('settings.update') },
];
