// Rows of the credentials issue: the same validated, indexed read (bench-routes.ts) without auth,
// with a JWT and with an API key, against each other and against plain node:http.
import { benchReadPaths } from './bench-routes.ts';
import type { BenchCredentials } from './credentials.ts';
import { plainTarget } from './http-rows.ts';
import type { RowGroup } from './row-runner.ts';
import type { ServerProcess } from './server-process.ts';

const names = { none: 'read (a) no auth', jwt: 'read (b) JWT', key: 'read (c) API key' } as const;

export function authRows(service: ServerProcess, credentials: BenchCredentials): RowGroup {
  const query = `?id=${encodeURIComponent(credentials.workspaceId)}`;
  const expectWorkspace = (_status: number, body: string) =>
    (JSON.parse(body) as { id?: string }).id === credentials.workspaceId ? undefined : 'not the expected workspace';
  const read = (path: string, bearer?: string) => ({
    method: 'GET' as const,
    path: path + query,
    headers: bearer ? { Authorization: `Bearer ${bearer}` } : undefined,
  });
  return {
    targets: [
      { name: names.none, server: service, request: read(benchReadPaths.public), check: expectWorkspace },
      {
        name: names.jwt,
        server: service,
        request: read(benchReadPaths.protected, credentials.token),
        check: expectWorkspace,
      },
      {
        name: names.key,
        server: service,
        request: read(benchReadPaths.protected, credentials.apiKey),
        check: expectWorkspace,
      },
    ],
    rows: [
      // Same route, same checks: only the credential differs (JWT: alg pinned, typ, kid, iss, aud, iat, exp, lifetime).
      {
        label: 'JWT auth / API-key auth on the same route',
        a: names.jwt,
        b: names.key,
        goal: { op: '>=', value: 0.9 },
      },
      { label: 'read (b) JWT / (a) no auth', a: names.jwt, b: names.none },
      { label: 'read (c) API key / (a) no auth', a: names.key, b: names.none, goal: { op: '>=', value: 0.9 } },
      { label: 'read (a) no auth vs node:http', a: names.none, b: plainTarget },
      { label: 'read (b) JWT vs node:http', a: names.jwt, b: plainTarget },
      { label: 'read (c) API key vs node:http', a: names.key, b: plainTarget, goal: { op: '>=', value: 0.2 } },
    ],
  };
}
