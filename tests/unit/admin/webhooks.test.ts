import type { SiteWebhook } from '../../../admin/src/api/types';
import { withWebhookEvent } from '../../../admin/src/pages/Settings/webhookEvents';
import { adminStore, closeAdminStores } from './api-store';

afterEach(closeAdminStores);

describe('ticking a narration event on a webhook', () => {
  it('adds or removes only that event; Strapi entry and media events stay as they were', () => {
    const events = ['entry.create', 'media.update', 'narration.failed'];
    expect(withWebhookEvent(events, 'narration.ready', true)).toEqual([
      'entry.create',
      'media.update',
      'narration.failed',
      'narration.ready',
    ]);
    expect(withWebhookEvent(events, 'narration.failed', false)).toEqual(['entry.create', 'media.update']);
  });

  it('never lists an event twice', () => {
    expect(withWebhookEvent(['narration.ready'], 'narration.ready', true)).toEqual(['narration.ready']);
    expect(withWebhookEvent([], 'narration.ready', false)).toEqual([]);
  });
});

describe("the site's webhooks through Strapi's admin API", () => {
  const HOOK: SiteWebhook = {
    id: '3',
    name: 'Front end',
    url: 'https://front.example/revalidate',
    headers: { Authorization: 'Bearer abc' },
    events: ['entry.publish'],
    isEnabled: true,
  };

  it('lists them from GET /admin/webhooks and saves one whole with PUT /admin/webhooks/:id, updating the list', async () => {
    const { api, store, requests } = adminStore((request) => {
      if (request.method === 'GET') return { data: [HOOK] };
      return { data: { id: HOOK.id, ...(request.data as object) } };
    });
    const listed = await store.dispatch(api.endpoints.getSpeechSiteWebhooks.initiate());
    expect(listed.data).toEqual([HOOK]);

    const events = withWebhookEvent(HOOK.events, 'narration.ready', true);
    await store.dispatch(api.endpoints.updateSpeechSiteWebhook.initiate({ ...HOOK, events })).unwrap();
    // Strapi's validator refuses unknown keys (no id in the body) and wants name, url and headers with the events.
    expect(requests[1]).toEqual({
      url: '/admin/webhooks/3',
      method: 'PUT',
      data: { name: 'Front end', url: HOOK.url, headers: HOOK.headers, events: ['entry.publish', 'narration.ready'], isEnabled: true },
      params: undefined,
    });
    expect(api.endpoints.getSpeechSiteWebhooks.select()(store.getState() as never).data?.[0].events).toEqual([
      'entry.publish',
      'narration.ready',
    ]);
  });
});
