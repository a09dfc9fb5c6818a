import type { FieldError } from './types';

/**
 * What the admin needs from a failed request: a message, the service's error code when the
 * server relayed one, and per-field validation errors for forms. Reads both shapes the admin
 * produces, without importing either: the fetch client's FetchError (the error body under
 * `response.data.error`) and the query cache's error (that body itself: status, message, details).
 */
export interface ApiProblem {
  status: number | null;
  message: string;
  code: string | null;
  fieldErrors: FieldError[];
  details: Record<string, unknown>;
}

interface ErrorLike {
  name?: string;
  message?: string;
  status?: number;
  /** Present on the query cache's errors. */
  details?: unknown;
  response?: { data?: { error?: { status?: number; message?: string; details?: unknown } } };
}

export function isAbort(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && (error as ErrorLike).name === 'AbortError');
}

export function toProblem(error: unknown): ApiProblem {
  const e = (error && typeof error === 'object' ? error : {}) as ErrorLike;
  const body = e.response?.data?.error;
  const rawDetails = body ? body.details : e.details;
  const details = rawDetails && typeof rawDetails === 'object' ? (rawDetails as Record<string, unknown>) : {};
  const fieldErrors = Array.isArray(details.errors)
    ? (details.errors as unknown[]).filter(
        (item): item is FieldError =>
          Boolean(item) &&
          typeof item === 'object' &&
          Array.isArray((item as FieldError).path) &&
          typeof (item as FieldError).message === 'string'
      )
    : [];
  return {
    status: body?.status ?? e.status ?? null,
    message: body?.message || e.message || 'Unknown error',
    code: typeof details.code === 'string' ? details.code : null,
    fieldErrors,
    details,
  };
}

/** The validation message for one field path (e.g. ['contentTypes', uid, 'textFields']), if any. */
export function fieldError(errors: FieldError[], ...path: string[]): string | undefined {
  const match = errors.find((error) => error.path.length >= path.length && path.every((part, index) => String(error.path[index]) === part));
  return match?.message;
}

/** A query's error as an ApiProblem (null without an error). */
export function problemOf(error: unknown): ApiProblem | null {
  return error ? toProblem(error) : null;
}
