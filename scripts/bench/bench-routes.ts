// Bench-only routes mounted on the real app by the benchmark (createApp never mounts them): one
// validated, indexed read, served twice — behind the guard chain of a public operation, and behind
// the chain of a protected one (bearer authentication by JWT or API key, scope check, per-credential
// throttle). Both chains come from operationGuard, so they are exactly what real operations run. Plus, for the
// tracking rows, a static 204 behind the public chain (the baseline of the pixel and the redirect) and a fixture
// route that stores tracked sent messages and answers their signed pixel and link paths.
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { App } from '../../src/app.ts';
import type { Deps } from '../../src/deps.ts';
import { ApiError } from '../../src/errors.ts';
import type { OperationMeta } from '../../src/generated/routes.ts';
import { operationGuard } from '../../src/http/operation-guard.ts';
import type { AppEnv } from '../../src/http/request-context.ts';
import { signTracking } from '../../src/handlers/sequences/tracking-token.ts';

export const benchReadPaths = { public: '/bench/read', protected: '/bench/read-authenticated' } as const;
export const benchTrackingPaths = { static204: '/bench/static-204', fixture: '/bench/tracking-fixture' } as const;

const Workspace = z.object({ id: z.string(), name: z.string(), created_at: z.string() });

/** The validated read's route (zod-openapi), for a path. */
export function readRoute(path: string) {
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

/** `messages` sent messages with opens and clicks tracked, sent an hour ago, in a workspace of their own. */
async function trackingFixture(deps: Deps, messages: number): Promise<{ open: string[]; click: string[] }> {
  const { sql } = deps.db;
  const ws = deps.ids.make('ws');
  const seq = deps.ids.make('seq');
  const sentAt = new Date(deps.clock.now().getTime() - 3_600_000);
  const ids = Array.from({ length: messages }, () => deps.ids.make('msg'));
  await sql.begin(async (tx) => {
    await tx`insert into workspaces (id, name) values (${ws}, 'Bench tracking')`;
    await tx`
      insert into sequences (id, workspace_id, name, status, schedule, daily_limit, steps, tracking, created_at, updated_at)
      values (${seq}, ${ws}, 'Bench', 'active', '{}'::jsonb, 1000, '[]'::jsonb, '{"opens": true, "clicks": true}'::jsonb,
              ${sentAt}, ${sentAt})`;
    await tx`
      insert into sequence_enrollments (id, workspace_id, sequence_id, lead_id, status, enrolled_at, updated_at)
      select 'enr_' || m, ${ws}, ${seq}, null, 'completed', ${sentAt}, ${sentAt} from unnest(${tx.array(ids)}::text[]) m`;
    await tx`
      insert into sequence_messages (id, workspace_id, sequence_id, enrollment_id, step, connector_id, mode, status,
        scheduled_at, sending_at, sent_at, tracked_opens, tracked_clicks, tracked_links, created_at, updated_at)
      select m, ${ws}, ${seq}, 'enr_' || m, 1, 'con_bench', 'sandbox', 'sent', ${sentAt}, ${sentAt}, ${sentAt}, true, true,
        '["https://example.com/landing"]'::jsonb, ${sentAt}, ${sentAt}
      from unnest(${tx.array(ids)}::text[]) m`;
  });
  const secret = deps.auth.apiKeyPepper;
  return {
    open: ids.map((messageId) => `/t/o/${signTracking(secret, { kind: 'open', workspaceId: ws, messageId })}`),
    click: ids.map(
      (messageId) => `/t/c/${signTracking(secret, { kind: 'click', workspaceId: ws, messageId, link: 0 })}`,
    ),
  };
}

export function mountTrackingBenchRoutes(app: App, deps: Deps): void {
  const chain = guards(benchTrackingPaths.static204, null, deps) as [
    MiddlewareHandler<AppEnv>,
    ...MiddlewareHandler<AppEnv>[],
  ];
  app.get(benchTrackingPaths.static204, ...chain, (c) => c.body(null, 204));
  app.get(benchTrackingPaths.fixture, async (c) =>
    c.json(await trackingFixture(deps, Math.min(10_000, Number(c.req.query('messages') ?? 1000)))),
  );
}
