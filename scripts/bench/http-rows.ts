// Rows of the contract-pipeline issue: the service's own endpoints against plain node:http.
import type { RowGroup } from './row-runner.ts';
import type { ServerProcess } from './server-process.ts';

export const plainTarget = 'node:http';

export function httpRows(servers: { plain: ServerProcess; service: ServerProcess }): RowGroup {
  return {
    targets: [
      { name: plainTarget, server: servers.plain, request: { method: 'GET', path: '/' } },
      { name: 'GET /healthz', server: servers.service, request: { method: 'GET', path: '/healthz' } },
      { name: 'GET /openapi.json', server: servers.service, request: { method: 'GET', path: '/openapi.json' } },
    ],
    rows: [
      { label: '`GET /healthz` (one DB query) vs node:http', a: 'GET /healthz', b: plainTarget },
      { label: '`GET /openapi.json` vs node:http', a: 'GET /openapi.json', b: plainTarget },
    ],
  };
}
