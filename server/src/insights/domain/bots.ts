import { isbot } from 'isbot';

/**
 * Whether a request's user agent is a crawler, a feed parser or a script, and not counted: isbot's
 * maintained list (the patterns podcast hosts use too), and a request with no user agent at all.
 */
export function isAutomated(userAgent: string | undefined): boolean {
  const agent = userAgent?.trim() ?? '';
  return agent === '' || isbot(agent);
}
