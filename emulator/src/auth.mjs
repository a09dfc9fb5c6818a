/**
 * API keys. A company is identified by its key (spec: "company API key"); the emulator names
 * each company by a fingerprint of the key so control endpoints and logs never show the key.
 */
import { createHash } from 'node:crypto';

/** @typedef {{ company: string, apiKey: string, restrictedVoices: Set<string> }} Principal */
/** @typedef {{ ok: true, principal: Principal } | { ok: false, reason: 'missing'|'malformed'|'revoked'|'unknown' }} AuthResult */

/** @param {string} apiKey */
export function companyOf(apiKey) {
  return `company-${createHash('sha256').update(apiKey).digest('hex').slice(0, 10)}`;
}

export class KeyRing {
  /** @param {Pick<import('./config.mjs').Knobs, 'apiKeys'|'revokedKeys'|'restrictedKeys'>} knobs */
  constructor({ apiKeys, revokedKeys, restrictedKeys }) {
    this.revoked = new Set(revokedKeys);
    /** @type {Map<string, Principal>} */
    this.valid = new Map();
    // A restricted key is a valid key with a voice deny-list (it is its own company).
    for (const key of [...apiKeys, ...Object.keys(restrictedKeys)]) {
      if (this.revoked.has(key)) continue;
      this.valid.set(key, { company: companyOf(key), apiKey: key, restrictedVoices: new Set(restrictedKeys[key] ?? []) });
    }
  }

  /** @param {string | undefined} header value of the Authorization header @returns {AuthResult} */
  authenticate(header) {
    if (!header) return { ok: false, reason: 'missing' };
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) return { ok: false, reason: 'malformed' };
    const key = match[1];
    if (this.revoked.has(key)) return { ok: false, reason: 'revoked' };
    const principal = this.valid.get(key);
    return principal ? { ok: true, principal } : { ok: false, reason: 'unknown' };
  }

  /** Key-free description for the control API. */
  describe() {
    return {
      companies: [...this.valid.values()].map((p) => ({ company: p.company, restrictedVoices: [...p.restrictedVoices] })),
      revokedKeyCount: this.revoked.size,
    };
  }
}

/** Human messages for a failed authentication (never containing the key). */
export const AUTH_FAILURE_MESSAGES = {
  missing: 'Missing Authorization header (expected "Bearer <API_KEY>").',
  malformed: 'Malformed Authorization header (expected "Bearer <API_KEY>").',
  revoked: 'API key has been revoked.',
  unknown: 'Invalid API key.',
};
