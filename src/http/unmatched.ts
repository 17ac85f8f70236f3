// Answers requests no route took: 405 with Allow when the path exists under other methods, else 404.
import type { OperationMeta } from '../generated/routes.ts';
import { ApiError } from '../errors.ts';

function pathPattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

export function unmatchedRequest(
  operations: readonly OperationMeta[],
  extra: Array<{ path: string; methods: string[] }> = [],
) {
  const table = [
    ...operations.map((op) => ({ pattern: pathPattern(op.path), method: op.method })),
    ...extra.flatMap((e) => e.methods.map((method) => ({ pattern: pathPattern(e.path), method }))),
  ];
  return (method: string, path: string): ApiError => {
    const allowed = [...new Set(table.filter((row) => row.pattern.test(path)).map((row) => row.method))];
    if (allowed.length && !allowed.includes(method)) {
      if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
      return new ApiError('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(', ')}.`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    return new ApiError('not_found', `No route matches ${method} ${path}.`);
  };
}
