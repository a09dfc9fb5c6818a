import { isbot } from 'isbot';

/** isbot's maintained list (the patterns podcast hosts use too), and no user agent at all. */
export function isAutomated(userAgent: string | undefined): boolean {
  const agent = userAgent?.trim() ?? '';
  return agent === '' || isbot(agent);
}
