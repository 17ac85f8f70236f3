// Comma-separated query filters (`status=queued,running`), checked against the values allowed.
import { ApiError } from '../errors.ts';

export function commaList<T extends string>(raw: string | undefined, field: string, allowed?: readonly T[]): T[] {
  if (raw === undefined || raw === '') return [];
  const values = [
    ...new Set(
      raw
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  const wrong = allowed ? values.find((v) => !allowed.includes(v as T)) : undefined;
  if (allowed && wrong !== undefined) {
    throw new ApiError('validation_failed', `"${wrong}" is not one of ${allowed.join(', ')}.`, {
      errors: [
        {
          field: `query.${field}`,
          code: 'invalid_value',
          message: `comma-separated, each one of ${allowed.join(', ')}`,
        },
      ],
    });
  }
  return values as T[];
}
