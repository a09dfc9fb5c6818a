import type { Core } from '@strapi/strapi';
import type { DocumentAction } from '../access/document-permissions';
import { documentPermissions } from '../services';
import { sendError } from './http-error';

const REFUSALS: Record<DocumentAction, string> = {
  read: 'You may not read this document.',
  narrate: 'You may not narrate this document: narrating it needs the permission to publish it (or to update it, for a type without draft & publish).',
};

/**
 * The Content Manager's permissions on the very document a route acts on. Answers 403 or 404
 * itself and returns false when the caller may not; nothing has been read or sent by then.
 */
export async function mayActOn(strapi: Core.Strapi, ctx: any, target: { contentType: string; documentId: string; locale?: string | null }, action: DocumentAction): Promise<boolean> {
  const decision = await documentPermissions(strapi).decide(ctx.state.userAbility, target.contentType, { documentId: target.documentId, locale: target.locale ?? null }, action);
  if (decision === 'allowed') return true;
  if (decision === 'not-found') sendError(ctx, 404, 'This document does not exist.');
  else sendError(ctx, 403, REFUSALS[action]);
  return false;
}

