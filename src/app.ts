// createApp(deps): the Hono app. Routes come from the generated table, each behind the guard its
// contract entry asks for; handlers come from the registry; every error leaves as problem+json.
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { Context, MiddlewareHandler } from 'hono';
import { adminPaths, adminRoutes } from './admin/routes.ts';
import type { Deps } from './deps.ts';
import { ApiError } from './errors.ts';
import { operations, routes, type OperationMeta } from './generated/routes.ts';
import type { HandlerContext } from './handlers/context.ts';
import { handlers } from './handlers/registry.ts';
import { docsRoutes } from './http/docs.ts';
import { operationGuard } from './http/operation-guard.ts';
import { MCP_PATH, mcpRoutes } from './http/mcp-route.ts';
import { handleError, problemResponse } from './http/problem.ts';
import { requestContext, type AppEnv } from './http/request-context.ts';
import { unmatchedRequest } from './http/unmatched.ts';
import { validationHook } from './http/validation.ts';

type HandlerResult = { status: number; body?: unknown; headers?: Record<string, string> };
type AnyHandler = (input: Record<string, unknown>, ctx: HandlerContext) => Promise<HandlerResult>;
type Valid = (target: string) => unknown;

export function honoPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/** JSON bodies the app serialized, by response, so in-process MCP tool calls need not read them back. */
type BodyTexts = WeakMap<Response, string>;

function respond(out: HandlerResult, texts: BodyTexts): Response {
  const headers = new Headers(out.headers);
  if (out.body === undefined) return new Response(null, { status: out.status, headers });
  headers.set('Content-Type', out.status >= 400 ? 'application/problem+json' : 'application/json');
  const text = JSON.stringify(out.body);
  const response = new Response(text, { status: out.status, headers });
  texts.set(response, text);
  return response;
}

function operationHandler(op: OperationMeta, deps: Deps, texts: BodyTexts) {
  const handler = handlers[op.handler] as unknown as AnyHandler;
  const request = (routes[op.handler] as { request?: Record<string, unknown> }).request ?? {};
  const targets: Array<[string, string]> = [];
  if (request.params) targets.push(['path', 'param']);
  if (request.query) targets.push(['query', 'query']);
  if (request.headers) targets.push(['headers', 'header']);
  if (request.body) targets.push(['body', 'json']);
  return async (c: Context<AppEnv>) => {
    const valid = c.req.valid.bind(c.req) as unknown as Valid;
    const input: Record<string, unknown> = {};
    for (const [field, target] of targets) input[field] = valid(target);
    const ctx: HandlerContext = { deps, principal: c.get('principal'), requestId: c.get('requestId'), clientAddress: c.get('clientAddress') };
    return respond(await handler(input, ctx), texts);
  };
}

export function createApp(deps: Deps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use('*', requestContext({ log: deps.log, trustProxy: deps.config.trustProxy }));
  const tooLarge = () => new ApiError('payload_too_large', `The request body exceeds ${deps.config.bodyLimitBytes} bytes.`);
  const limit = bodyLimit({
    maxSize: deps.config.bodyLimitBytes,
    onError: () => {
      throw tooLarge();
    },
  });
  // Touching `c.req.raw.body` makes the node adapter build a web stream, which costs more than a whole
  // small request, so the stream is only counted when no trustworthy length is declared: Node's HTTP
  // parser reads exactly Content-Length bytes, so a declared length within the limit needs no counting.
  app.use('*', (c, next) => {
    const declared = c.req.header('content-length');
    if (c.req.header('transfer-encoding') !== undefined) return limit(c, next);
    if (declared !== undefined) {
      if (Number(declared) > deps.config.bodyLimitBytes) throw tooLarge();
      return next();
    }
    return c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, next);
  });
  const texts: BodyTexts = new WeakMap();
  const guardOptions = { authenticator: deps.authenticator, limiter: deps.limiter, rateLimit: deps.config.rateLimit };
  for (const op of operations) {
    const guards = operationGuard(op, guardOptions) as [MiddlewareHandler<AppEnv>, ...MiddlewareHandler<AppEnv>[]];
    app.on(op.method, honoPath(op.path), ...guards);
    // The route table's handler types are per-operation; the registry is checked against them by tsc.
    app.openapi(routes[op.handler] as never, operationHandler(op, deps, texts) as never);
  }
  mcpRoutes(app, deps, (response) => texts.get(response));
  adminRoutes(app);
  docsRoutes(app, deps.openapiDocument);
  const unmatched = unmatchedRequest(operations, [
    { path: '/openapi.json', methods: ['GET'] },
    { path: '/docs', methods: ['GET'] },
    { path: MCP_PATH, methods: ['POST', 'GET', 'DELETE'] },
    ...adminPaths,
  ]);
  app.notFound((c) => problemResponse(unmatched(c.req.method, c.req.path), c.get('requestId') ?? 'unknown', c.req.path));
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof createApp>;
