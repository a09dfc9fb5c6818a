import { errors } from '@strapi/utils';
import { z } from 'zod/v3';

/** The request's input parsed by `schema`, or a 400 ValidationError listing the refused fields. */
export function validate<Schema extends z.ZodTypeAny>(schema: Schema, input: unknown, message = 'Invalid request.'): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new errors.ValidationError(message, parsed.error.flatten().fieldErrors);
  return parsed.data;
}

/** A type written out field by field, at every depth (`A & B` and the object of their fields compare equal). */
type Flat<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { [Key in keyof T]: Flat<T[Key]> } : T;

/** True only when A and B are the same type: the same fields, each as optional and of the same type. */
type Same<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;

/**
 * A request schema that accepts exactly what the route's contract (shared/contracts) says a client
 * sends: `accepts<Contract>()(schema)` fails to compile when the schema's input and the contract
 * differ in one field (added, dropped, optional on one side only, or of another type). The input,
 * not the parsed output, is compared: a default (`page`) is optional for the client.
 */
export function accepts<Contract>() {
  return <Schema extends z.ZodTypeAny>(
    schema: Schema & (Same<z.input<Schema>, Contract> extends true ? unknown : { schemaInput: z.input<Schema>; contract: Contract })
  ): Schema => schema;
}

/**
 * Like `accepts`, for a schema whose input says nothing (a form field read through `z.preprocess`):
 * its parsed output is compared with `Contract` instead.
 */
export function parsesTo<Contract>() {
  return <Schema extends z.ZodTypeAny>(
    schema: Schema & (Same<z.output<Schema>, Contract> extends true ? unknown : { schemaOutput: z.output<Schema>; contract: Contract })
  ): Schema => schema;
}

export const contentTypeUid = z.string().regex(/^[a-z0-9-]+::[a-z0-9-]+\.[a-z0-9-]+$/i);

/** A locale code, or null (and left out) for every locale or a type without locales. */
export const optionalLocale = z.string().min(1).max(20).nullable().optional();

/** One document (in one locale) that an admin route acts on. */
export const documentTarget = z.object({
  contentType: contentTypeUid,
  documentId: z.string().min(1).max(64),
  locale: optionalLocale,
});

/** Documents of one type (a list page's selection) that a bulk admin route acts on. */
export const manyTarget = z.object({
  contentType: contentTypeUid,
  documentIds: z.array(z.string().min(1).max(64)).min(1).max(200),
  locale: optionalLocale,
});
