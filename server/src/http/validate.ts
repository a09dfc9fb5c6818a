import { errors } from '@strapi/utils';
import { z } from 'zod/v3';

export function validate<Schema extends z.ZodTypeAny>(schema: Schema, input: unknown, message = 'Invalid request.'): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new errors.ValidationError(message, parsed.error.flatten().fieldErrors);
  return parsed.data;
}

type Flat<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { [Key in keyof T]: Flat<T[Key]> } : T;

/** The same fields, each as optional and of the same type. */
type Same<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;

/**
 * Fails to compile when the schema's input and the route's contract (shared/contracts) differ in one
 * field. The input is compared, not the output: a default is optional for the client.
 */
export function accepts<Contract>() {
  return <Schema extends z.ZodTypeAny>(
    schema: Schema & (Same<z.input<Schema>, Contract> extends true ? unknown : { schemaInput: z.input<Schema>; contract: Contract })
  ): Schema => schema;
}

/** Like `accepts`, comparing the parsed output, for a schema whose input says nothing (`z.preprocess`). */
export function parsesTo<Contract>() {
  return <Schema extends z.ZodTypeAny>(
    schema: Schema & (Same<z.output<Schema>, Contract> extends true ? unknown : { schemaOutput: z.output<Schema>; contract: Contract })
  ): Schema => schema;
}

export const contentTypeUid = z.string().regex(/^[a-z0-9-]+::[a-z0-9-]+\.[a-z0-9-]+$/i);

/** Null or left out: every locale, or a type without locales. */
export const optionalLocale = z.string().min(1).max(20).nullable().optional();

export const documentTarget = z.object({
  contentType: contentTypeUid,
  documentId: z.string().min(1).max(64),
  locale: optionalLocale,
});

export const manyTarget = z.object({
  contentType: contentTypeUid,
  documentIds: z.array(z.string().min(1).max(64)).min(1).max(200),
  locale: optionalLocale,
});
