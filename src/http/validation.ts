// Turns validation failures into a 400 problem whose `errors` point at the fields, and refuses text the database
// cannot store wherever it sits in a request's input (the check is src/http/storable-text.ts). Every validator of
// every operation (path, query, header, JSON and form bodies, and the glue's text bodies) ends here, so this is
// the one place the check runs, on the value the handler will get (or, when validation failed, the raw value).
import type { Context } from 'hono';
import type { ZodError } from 'zod';
import { ApiError, type FieldError } from '../errors.ts';
import type { OperationMeta } from '../generated/routes.ts';
import { findUnstorableText, UNSTORABLE_MESSAGE, uncheckedPath, type UncheckedPath } from './storable-text.ts';

const LOCATION: Record<string, string> = {
  param: 'path',
  query: 'query',
  header: 'header',
  json: 'body',
  form: 'body',
  text: 'body',
};

function pointer(path: readonly PropertyKey[]): string {
  return `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/**
 * A body's fields are named by JSON pointer (RFC 6901), parameters as `query.name`, `path.name`, `header.name`:
 * a parameter is one value on the wire, so an error inside a list parameter (`?type=a,b`) names the parameter.
 */
function fieldError(where: string, path: readonly PropertyKey[], code: string, message: string): FieldError {
  const entry: FieldError = { code, message };
  if (where === 'body') entry.pointer = path.length ? pointer(path) : '';
  else entry.field = path.length ? `${where}.${String(path[0])}` : where;
  return entry;
}

export function fieldErrors(target: string, error: ZodError): FieldError[] {
  const where = LOCATION[target] ?? target;
  return error.issues.map((issue) => {
    // A custom check may name its own code.
    const custom = issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : undefined;
    return fieldError(where, issue.path, custom ?? issue.code, issue.message);
  });
}

/** `invalid_character` for each place in `value` that holds text the database cannot store. */
export function textErrors(target: string, value: unknown, unchecked: readonly UncheckedPath[] = []): FieldError[] {
  const where = LOCATION[target] ?? target;
  return findUnstorableText(value, unchecked).map(({ path, key }) =>
    fieldError(where, path, 'invalid_character', key ? `the key ${UNSTORABLE_MESSAGE}` : UNSTORABLE_MESSAGE),
  );
}

export interface ValidationResult {
  target: string;
  success: boolean;
  /** What validation produced, or the raw value when it failed. */
  data?: unknown;
  error?: unknown;
}

export type ValidationHook = (result: ValidationResult, c: Context) => undefined;

/** The places of each body kind the contract leaves unchecked (`x-unchecked-text`), as pointer segments. */
function uncheckedByTarget(op: OperationMeta | undefined): Record<string, UncheckedPath[]> {
  const out: Record<string, UncheckedPath[]> = {};
  for (const media of op?.body?.media ?? []) {
    for (const place of media.uncheckedText ?? []) (out[media.kind] ??= []).push(uncheckedPath(place));
  }
  return out;
}

/** The validation hook of one operation, built once; without an operation, nothing is left unchecked. */
export function inputValidation(op?: OperationMeta): ValidationHook {
  const unchecked = uncheckedByTarget(op);
  return (result) => {
    const errors = result.success ? [] : fieldErrors(result.target, result.error as ZodError);
    errors.push(...textErrors(result.target, result.data, unchecked[result.target]));
    if (!errors.length) return undefined;
    const first = errors[0];
    const where = first.pointer !== undefined ? `body${first.pointer}` : first.field;
    throw new ApiError('validation_failed', `The request is invalid${where ? `: ${where} ${first.message}` : ''}.`, {
      errors,
    });
  };
}

export const validationHook: ValidationHook = inputValidation();
