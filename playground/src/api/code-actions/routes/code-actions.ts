/**
 * Test fixture: the Document Service called from code, the way a site's own cron job or
 * lifecycle would. Answers 404 unless PLAYGROUND_CODE_ACTIONS=true (set by the integration tests
 * only), so the demo never exposes it.
 */
export default {
  routes: [{ method: 'POST', path: '/code-actions', handler: 'code-actions.run', config: { auth: false } }],
};
