// What create_lead and update_lead check of a lead, and the problems the single-lead operations share.
import { ApiError } from '../../errors.ts';
import { normalizeLead, type FieldError, type NormalizedLead } from './lead-fields.ts';

export const leadNotFound = (id: string) => new ApiError('not_found', `No lead ${id} in this workspace.`);

export const addressTaken = (email: string) =>
  new ApiError('already_exists', `The workspace already has a lead with the address ${email}.`);

function invalid(errors: FieldError[]): ApiError {
  return new ApiError(
    'validation_failed',
    `The lead is not valid: ${errors.map((e) => `${e.column} ${e.message}`).join('; ')}.`,
    {
      errors: errors.map((e) => ({
        pointer: `/${e.column.replace('.', '/')}`,
        field: e.column,
        code: e.code,
        message: e.message,
      })),
    },
  );
}

/** The lead normalised (lead-fields.ts), or a validation_failed problem naming every wrong field. */
export function normalizedLead(input: Record<string, unknown>): NormalizedLead {
  const result = normalizeLead(input);
  if ('errors' in result) throw invalid(result.errors);
  return result.lead;
}
