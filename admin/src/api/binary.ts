import { attemptTokenRefresh } from '@strapi/strapi/admin';

/**
 * Binary answers to a POST (the voice preview's audio/mpeg). The admin fetch client parses every
 * POST answer as JSON, so this one request uses fetch directly, with the same admin JWT (kept
 * from the admin's redux store by the plugin's middleware) and the same refresh on a 401.
 */

let adminToken: string | null = null;

export function rememberAdminToken(token: string | null) {
  adminToken = token;
}

async function send(path: string, body: unknown, token: string | null) {
  const backendURL: string = (window as any).strapi?.backendURL ?? '';
  return fetch(`${backendURL}${path}`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'audio/mpeg, application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

export async function postForBlob(path: string, body: unknown): Promise<Blob> {
  let response = await send(path, body, adminToken);
  if (response.status === 401) {
    const fresh = await attemptTokenRefresh(adminToken);
    adminToken = fresh;
    response = await send(path, body, fresh);
  }
  if (!response.ok) {
    let data: unknown = null;
    try {
      data = await response.json();
    } catch {
      /* not JSON */
    }
    // The shape of the admin fetch client's FetchError, so api/errors.ts reads it the same way.
    throw Object.assign(new Error((data as any)?.error?.message ?? `HTTP ${response.status}`), { name: 'FetchError', status: response.status, response: { data } });
  }
  return response.blob();
}
