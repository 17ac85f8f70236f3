// Turns zod validation failures into a 400 problem whose `errors` point at the fields.
import type { Context } from 'hono';
import type { ZodError } from 'zod';
import { ApiError, type FieldError } from '../errors.ts';

const LOCATION: Record<string, string> = { param: 'path', query: 'query', header: 'header', json: 'body', form: 'body', text: 'body' };

function pointer(path: PropertyKey[]): string {
  return `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

export function fieldErrors(target: string, error: ZodError): FieldError[] {
  const where = LOCATION[target] ?? target;
  return error.issues.map((issue) => {
    // A custom check names its own code (e.g. `invalid_character` from the generated text check).
    const custom = issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : undefined;
    const entry: FieldError = { code: custom ?? issue.code, message: issue.message };
    if (where === 'body') entry.pointer = issue.path.length ? pointer(issue.path) : '';
    else entry.field = issue.path.length ? `${where}.${issue.path.map(String).join('.')}` : where;
    return entry;
  });
}

export function validationHook(result: { target: string; success: boolean; error?: unknown }, _c: Context): undefined {
  if (result.success) return undefined;
  const errors = fieldErrors(result.target, result.error as ZodError);
  const first = errors[0];
  const where = first?.pointer !== undefined ? `body${first.pointer}` : first?.field;
  throw new ApiError('validation_failed', `The request is invalid${where ? `: ${where} ${first.message}` : ''}.`, { errors });
}
