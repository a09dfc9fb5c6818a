import { errors } from '@strapi/utils';
import { z } from 'zod';

/** The request's input parsed by `schema`, or a 400 ValidationError listing the refused fields. */
export function validate<Schema extends z.ZodTypeAny>(schema: Schema, input: unknown, message = 'Invalid request.'): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new errors.ValidationError(message, parsed.error.flatten().fieldErrors);
  return parsed.data;
}

export const contentTypeUid = z.string().regex(/^[a-z0-9-]+::[a-z0-9-]+\.[a-z0-9-]+$/i);

/** One document (in one locale) that an admin route acts on. */
export const documentTarget = z.object({
  contentType: contentTypeUid,
  documentId: z.string().min(1).max(64),
  locale: z.string().min(1).max(20).nullable().optional(),
});
