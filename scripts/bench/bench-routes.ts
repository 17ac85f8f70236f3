// Bench-only routes mounted on the real app by the benchmark (createApp never mounts them): one
// validated, indexed read, served twice — behind the guard chain of a public operation, and behind
// the chain of a protected one (bearer authentication by JWT or API key, scope check, per-credential
// throttle). Both chains come from operationGuard, so they are exactly what real operations run.
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { App } from '../../src/app.ts';
import type { Deps } from '../../src/deps.ts';
import { ApiError } from '../../src/errors.ts';
import type { OperationMeta } from '../../src/generated/routes.ts';
import { operationGuard } from '../../src/http/operation-guard.ts';
import type { AppEnv } from '../../src/http/request-context.ts';

export const benchReadPaths = { public: '/bench/read', protected: '/bench/read-authenticated' } as const;

const Workspace = z.object({ id: z.string(), name: z.string(), created_at: z.string() });

function readRoute(path: string) {
  return createRoute({
    method: 'get',
    path,
    request: { query: z.object({ id: z.string().regex(/^ws_[0-9a-z]{26}$/) }) },
    responses: {
      200: { description: 'The workspace', content: { 'application/json': { schema: Workspace } } },
    },
  });
}

function guards(path: string, scopes: string[] | null, deps: Deps): MiddlewareHandler<AppEnv>[] {
  // operationGuard reads only the scopes and the body type; the other fields just fill the shape.
  const op: OperationMeta = {
    operationId: 'bench_read',
    handler: 'get_me',
    method: 'GET',
    path,
    scopes,
    body: null,
    responses: {},
  };
  return operationGuard(op, {
    authenticator: deps.auth.authenticator,
    limiter: deps.auth.limiter,
    rateLimit: deps.config.rateLimit,
  });
}

export function mountBenchRoutes(app: App, deps: Deps): void {
  const { sql } = deps.db;
  const variants: [string, string[] | null][] = [
    [benchReadPaths.public, null],
    [benchReadPaths.protected, ['users:read']],
  ];
  for (const [path, scopes] of variants) {
    const chain = guards(path, scopes, deps) as [MiddlewareHandler<AppEnv>, ...MiddlewareHandler<AppEnv>[]];
    app.on('GET', path, ...chain);
    app.openapi(readRoute(path), async (c) => {
      const { id } = c.req.valid('query');
      const [row] = await sql<{ id: string; name: string; created_at: Date }[]>`
        select id, name, created_at from workspaces where id = ${id}`;
      if (!row) throw new ApiError('not_found', 'No such workspace.');
      return c.json({ id: row.id, name: row.name, created_at: row.created_at.toISOString() }, 200);
    });
  }
}
