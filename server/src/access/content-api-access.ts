import type { Context } from 'koa';
import type { Core } from '@strapi/strapi';
import { contentTypeSchema } from '../utils';

/**
 * Who may see a narration through the content API: exactly who may read the narrated entry. Public
 * routes carry `auth: false`, so a caller Strapi cannot authenticate gets the same 404 as one
 * without the permission (no hint that a narration exists); Strapi's own strategies then decide.
 */

export interface ContentApiAuth {
  strategy: { name: string; verify?: (auth: ContentApiAuth, config: unknown) => unknown };
  credentials: unknown;
  ability: unknown;
}

interface AuthService {
  authenticate(ctx: unknown, next: () => Promise<unknown>): Promise<unknown>;
  verify(auth: ContentApiAuth | undefined, config: { scope: string[] }): Promise<unknown>;
}

/** As the type's content-API route is scoped. */
export function readScope(uid: string, kind: string | undefined): string {
  return kind === 'singleType' ? `${uid}.find` : `${uid}.findOne`;
}

export function createContentApiAccess(strapi: Core.Strapi) {
  const auth = () => strapi.get('auth') as AuthService;

  /** With a state of its own, so a refusal never touches the real response. */
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
    async authenticate(ctx: Context): Promise<ContentApiAuth | null> {
      if (ctx.state?.auth && ctx.state.route?.config?.auth !== false) return ctx.state.auth as ContentApiAuth;
      return authenticateView(Object.create(ctx));
    },

    /** The Public role whatever the request carries: for answers cached publicly (feeds). */
    publicAuth(): Promise<ContentApiAuth | null> {
      return authenticateView({ request: { header: {}, headers: {} }, query: {} });
    },

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
