import { ADMIN_BASE, ADMIN_ROUTES, adminUrl } from '../../../shared/contracts/routes';
import controllers from '../../../server/src/controllers';
import routes from '../../../server/src/routes';

/** The admin routes' table (shared/contracts/routes.ts) against what the server registers and answers. */
describe('the routes', () => {
  it('registers each admin route of the table once, with its method and path, and no other', () => {
    const registered = routes.admin.routes.map(({ method, path, handler }) => ({ method, path, handler }));
    const table = Object.entries(ADMIN_ROUTES).map(([handler, { method, path }]) => ({ method, path, handler }));
    expect(registered).toHaveLength(table.length);
    expect(new Set(registered.map((route) => route.handler)).size).toBe(registered.length);
    expect(registered).toEqual(expect.arrayContaining(table));
  });

  it('has a controller action behind every route, public ones too', () => {
    const actionsOf = (name: string): string[] => {
      const controller = (controllers as Record<string, unknown>)[name];
      const actions = typeof controller === 'function' ? (controller as (deps: unknown) => object)({ strapi: {} }) : controller;
      return Object.keys(actions ?? {});
    };
    const missing = [...routes.admin.routes, ...routes['content-api'].routes]
      .map((route) => route.handler)
      .filter((handler) => !actionsOf(handler.split('.')[0]).includes(handler.split('.')[1]));
    expect(missing).toEqual([]);
  });

  it("fills and encodes a path's parameters for the admin", () => {
    expect(adminUrl('admin-settings.get')).toBe(`${ADMIN_BASE}/settings`);
    expect(adminUrl('admin-transcriptions.download', { id: 12 })).toBe('/speech/transcriptions/12/download');
    expect(adminUrl('admin-narrations.forDocument', { documentId: 'a/b c' })).toBe('/speech/narrations/document/a%2Fb%20c');
  });
});
