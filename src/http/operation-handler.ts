// Adapts the generated operations to Hono: reads the validated input (a JSON or form body through zod, a
// text body such as CSV as a string), calls the handler, and writes its `{status, body, headers}` with the
// media type the contract declares for that status. The app and the glue tests mount routes through here.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler, ValidationTargets } from 'hono';
import type { MediaEntry, OperationMeta } from '../generated/routes.ts';
import { mediaType } from './operation-guard.ts';
import type { AppEnv } from './request-context.ts';
import { inputValidation, type ValidationHook } from './validation.ts';
import { respond, type BodyTexts, type HandlerResult } from './respond.ts';

export type { BodyTexts, HandlerResult } from './respond.ts';

type AnyHandler<Ctx> = (input: Record<string, unknown>, ctx: Ctx) => Promise<HandlerResult>;
/** The context after the route's validators ran: this glue, shared by every operation, reads their data as unknown. */
type ValidatedContext = Context<AppEnv, string, { out: { [T in keyof ValidationTargets]: unknown } }>;
type Parser = { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } };
interface RouteShape {
  request?: {
    params?: unknown;
    query?: unknown;
    headers?: unknown;
    body?: { content: Record<string, { schema: Parser }> };
  };
}

export function honoPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

const TARGETS: Record<Exclude<MediaEntry['kind'], 'text'>, keyof ValidationTargets> = { json: 'json', form: 'form' };

async function readBody(
  c: ValidatedContext,
  media: MediaEntry,
  route: RouteShape,
  hook: ValidationHook,
): Promise<unknown> {
  if (media.kind !== 'text') return c.req.valid(TARGETS[media.kind]);
  const text = await c.req.text();
  const result = route.request!.body!.content[media.type].schema.safeParse(text);
  hook({ target: 'text', success: result.success, data: result.success ? result.data : text, error: result.error }, c);
  return result.data;
}

/**
 * One media type: `input.body` is its value. Several: `{ contentType, value }` for the one sent (the guard has
 * refused any other), or undefined when an optional body was left out.
 */
async function bodyInput(
  c: ValidatedContext,
  op: OperationMeta,
  route: RouteShape,
  hook: ValidationHook,
): Promise<unknown> {
  const media = op.body!.media;
  if (media.length === 1) return readBody(c, media[0], route, hook);
  const sent = mediaType(c.req.header('content-type'));
  const chosen = media.find((m) => m.type.toLowerCase() === sent);
  return chosen ? { contentType: chosen.type, value: await readBody(c, chosen, route, hook) } : undefined;
}

export function operationHandler<Ctx>(
  op: OperationMeta,
  route: unknown,
  handler: AnyHandler<Ctx>,
  context: (c: Context<AppEnv>) => Ctx,
  texts: BodyTexts,
  hook: ValidationHook,
) {
  const request = (route as RouteShape).request ?? {};
  const targets: Array<[string, keyof ValidationTargets]> = [];
  if (request.params) targets.push(['path', 'param']);
  if (request.query) targets.push(['query', 'query']);
  if (request.headers) targets.push(['headers', 'header']);
  return async (c: ValidatedContext) => {
    const input: Record<string, unknown> = {};
    for (const [field, target] of targets) input[field] = c.req.valid(target);
    if (request.body && op.body) input.body = await bodyInput(c, op, route as RouteShape, hook);
    return respond(await handler(input, context(c)), op, texts);
  };
}

export interface MountOptions<Ctx> {
  operations: readonly OperationMeta[];
  routes: Record<string, unknown>;
  handlers: object;
  /** The middleware before each operation (authentication, throttling, content type), built once. */
  guards: (op: OperationMeta) => MiddlewareHandler<AppEnv>[];
  context: (c: Context<AppEnv>) => Ctx;
  texts: BodyTexts;
}

/** Registers every operation of the generated table, each behind its guards. */
export function mountOperations<Ctx>(app: OpenAPIHono<AppEnv>, options: MountOptions<Ctx>): void {
  for (const op of options.operations) {
    const guards = options.guards(op) as [MiddlewareHandler<AppEnv>, ...MiddlewareHandler<AppEnv>[]];
    if (guards.length) app.on(op.method, honoPath(op.path), ...guards);
    const handler = (options.handlers as Record<string, AnyHandler<Ctx>>)[op.handler];
    const route = options.routes[op.handler];
    // One hook for the route's validators and the glue's text bodies: it knows what the contract leaves unchecked.
    const hook = inputValidation(op);
    // The route table's handler types are per-operation; the registry is checked against them by tsc.
    app.openapi(
      route as never,
      operationHandler(op, route, handler, options.context, options.texts, hook) as never,
      hook as never,
    );
  }
}
