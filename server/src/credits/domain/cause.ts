/** Who or what caused a request that can charge, as the ledger names it. */
import type { LedgerCause } from '../../../../shared/contracts/usage';

export interface Origin {
  cause: LedgerCause;
  causedBy: string | null;
  /** The archive backfill that queued it (cause `backfill`). */
  backfill?: number;
}

/** A reconciliation, or a publish by code outside any request. */
export const AUTOMATIC: Origin = { cause: 'automatic', causedBy: null };

export interface Person {
  id?: number | string;
  firstname?: string | null;
  lastname?: string | null;
  username?: string | null;
  email?: string | null;
}

export interface RequestState {
  user?: Person | null;
  isAuthenticatedAdmin?: boolean;
  auth?: { strategy?: { name?: string } | null; credentials?: (Person & { name?: string | null }) | null } | null;
}

const MAX_NAME = 200;

export function personName(person: Person | null | undefined): string | null {
  if (!person) return null;
  const full = [person.firstname, person.lastname].filter((part) => typeof part === 'string' && part.trim() !== '').join(' ');
  const name = full || person.username || person.email || null;
  const id = person.id !== undefined ? ` (#${person.id})` : '';
  return name ? `${name}${id}`.slice(0, MAX_NAME) : id ? `#${person.id}` : null;
}

export function publishOrigin(state: RequestState | null | undefined): Origin {
  if (!state) return AUTOMATIC;
  const strategy = state.auth?.strategy?.name;
  if (strategy === 'admin-token') {
    // An admin API token calling the admin's routes (Strapi 5.54).
    const token = state.auth?.credentials?.name;
    return { cause: 'admin-publish', causedBy: token ? `admin token "${token}"`.slice(0, MAX_NAME) : 'admin token' };
  }
  if (state.isAuthenticatedAdmin || strategy === 'admin') return { cause: 'admin-publish', causedBy: personName(state.user) };
  // The content API's tokens: `content-api-token` since Strapi 5.54, `api-token` before.
  if (strategy === 'content-api-token' || strategy === 'api-token') {
    const token = state.auth?.credentials?.name;
    return { cause: 'api-publish', causedBy: token ? `API token "${token}"`.slice(0, MAX_NAME) : 'API token' };
  }
  if (strategy === 'users-permissions' || state.user) {
    const user = personName(state.user ?? state.auth?.credentials);
    return { cause: 'api-publish', causedBy: user ? `user ${user}` : 'user' };
  }
  return { cause: 'api-publish', causedBy: 'Public role' };
}

export function editorOrigin(cause: LedgerCause, admin: Person | null | undefined): Origin {
  return { cause, causedBy: personName(admin) };
}
