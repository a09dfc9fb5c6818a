import type { Context } from 'koa';
import type { Core } from '@strapi/strapi';
import { contentTypeSchema } from '../utils';

/**
 * Who may see a narration through the content API: exactly who may read the narrated entry
 * through it. The plugin's public routes carry `auth: false` so that a caller Strapi cannot
 * authenticate gets the same 404 as one without the permission (no hint that a narration exists);
 * the caller is then authenticated by Strapi's own content-API strategies (users-permissions JWT,
 * API token, else the Public role) and verified against the narrated type's read action.
 */

/** Strapi's content-API auth result (`ctx.state.auth`). */
export interface ContentApiAuth {
  strategy: { name: string; verify?: (auth: ContentApiAuth, config: unknown) => unknown };
  credentials: unknown;
  ability: unknown;
}

interface AuthService {
  authenticate(ctx: unknown, next: () => Promise<unknown>): Promise<unknown>;
  verify(auth: ContentApiAuth | undefined, config: { scope: string[] }): Promise<unknown>;
}

/** The action that reads one entry of a type, as its content-API route is scoped. */
export function readScope(uid: string, kind: string | undefined): string {
  return kind === 'singleType' ? `${uid}.find` : `${uid}.findOne`;
}

export function createContentApiAccess(strapi: Core.Strapi) {
  const auth = () => strapi.get('auth') as AuthService;

  /** Runs Strapi's content-API strategies on `view` with a state of its own; a refusal leaves it unauthenticated. */
  async function authenticateView(view: Record<string, unknown>): Promise<ContentApiAuth | null> {
    const state: { route: unknown; auth?: ContentApiAuth } = { route: { info: { type: 'content-api' }, config: {} } };
    view.state = state;
    view.unauthorized = () => undefined;
    try {
      await auth().authenticate(view, async () => undefined);
    } catch {
      return null;
    }
    return state.auth ?? null;
  }

  return {
    /**
     * Authenticates a request to an `auth: false` route the way a content-API route would be,
     * without touching the real response: the strategies run on a view of the context with its
     * own state, and a refusal only leaves that view unauthenticated.
     */
    async authenticate(ctx: Context): Promise<ContentApiAuth | null> {
      if (ctx.state?.auth && ctx.state.route?.config?.auth !== false) return ctx.state.auth as ContentApiAuth;
      return authenticateView(Object.create(ctx));
    },

    /**
     * What an anonymous caller is: the Public role (users-permissions), whatever the request
     * carries. For answers that are the same for everyone and may be cached publicly (feeds).
     */
    publicAuth(): Promise<ContentApiAuth | null> {
      return authenticateView({ request: { header: {}, headers: {} }, query: {} });
    },

    /** May this (already authenticated) caller read entries of `uid` through the content API? */
    async mayRead(authResult: ContentApiAuth | null | undefined, uid: string): Promise<boolean> {
      if (!authResult) return false;
      const model = contentTypeSchema(strapi, uid);
      if (!model) return false;
      try {
        await auth().verify(authResult, { scope: [readScope(uid, model.kind)] });
        return true;
      } catch {
        return false;
      }
    },
  };
}

export type ContentApiAccess = ReturnType<typeof createContentApiAccess>;
