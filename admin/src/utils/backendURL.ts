/** What the admin app puts on `window.strapi` that the plugin reads. */
interface AdminWindow extends Window {
  strapi?: { backendURL?: string };
}

/** The server's base URL as the admin knows it: '' when the server itself serves the admin (or outside a browser). */
export function backendURL(): string {
  return typeof window === 'undefined' ? '' : ((window as AdminWindow).strapi?.backendURL ?? '');
}
