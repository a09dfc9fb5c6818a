import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { documentKey, type DocumentAction } from './document-permissions';
import { getService } from '../utils';

/**
 * A 403 that says why. Strapi's route middleware answers any other ForbiddenError thrown behind it
 * with a bare "Forbidden" (@strapi/core compose-endpoint): only a PolicyError keeps its message.
 */
export const refusal = (message: string) => new errors.PolicyError(message);

const REFUSALS: Record<DocumentAction, string> = {
  read: 'You may not read this document.',
  narrate:
    'You may not narrate this document: narrating it needs the permission to publish it (or to update it, for a type without draft & publish).',
};

/**
 * 404 or 403 before anything is read or sent. Returns the target in the locale it was checked in,
 * which the route then acts in: what is checked is what is read, narrated and charged.
 */
export async function ensureMayActOn<Target extends { contentType: string; documentId: string; locale?: string | null }>(
  ctx: Context,
  target: Target,
  action: DocumentAction
): Promise<Target & { locale: string | null }> {
  const permissions = getService('document-permissions');
  const locale = await permissions.localeOf(target.contentType, target.locale ?? null);
  const decision = await permissions.decide(ctx.state.userAbility, target.contentType, { documentId: target.documentId, locale }, action);
  if (decision === 'not-found') throw new errors.NotFoundError('This document does not exist.');
  if (decision === 'forbidden') throw refusal(REFUSALS[action]);
  return { ...target, locale };
}

/** In the locale they were checked in, as ensureMayActOn. */
export async function permittedDocuments(
  ctx: Context,
  target: { contentType: string; documentIds: string[]; locale?: string | null },
  action: DocumentAction
): Promise<{ allowed: string[]; refused: string[]; locale: string | null }> {
  const permissions = getService('document-permissions');
  const locale = await permissions.localeOf(target.contentType, target.locale ?? null);
  const permitted = await permissions.permitted(
    ctx.state.userAbility,
    target.contentType,
    target.documentIds.map((documentId) => ({ documentId, locale })),
    action
  );
  const localized = permissions.isLocalized(target.contentType);
  const allowed = (documentId: string) => permitted.has(documentKey(documentId, localized ? locale : null));
  return {
    allowed: target.documentIds.filter(allowed),
    refused: target.documentIds.filter((documentId) => !allowed(documentId)),
    locale,
  };
}
