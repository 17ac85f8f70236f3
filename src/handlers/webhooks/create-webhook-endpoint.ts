import type { CreateWebhookEndpointInput, CreateWebhookEndpointOutput } from '../../generated/handlers.ts';
import { countEndpoints, insertEndpoint, newEndpointId, type EndpointRow } from './webhook-endpoints-data.ts';
import { lockWorkspace } from '../users/workspaces-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { newWebhookSecret } from './signature.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { checkEndpointUrl, checkEventTypes } from './endpoint-input.ts';
import { endpointBody } from './wire.ts';

export interface CreateWebhookEndpointRequest {
  url: string;
  eventTypes: string[];
  description?: string;
}

export const MAX_ENDPOINTS_PER_WORKSPACE = 20;

/** Admin-only. The signing secret is in the result and nowhere else in clear. */
export async function createWebhookEndpoint(
  deps: Deps,
  actor: Actor,
  request: CreateWebhookEndpointRequest,
): Promise<{ row: EndpointRow; secret: string }> {
  requireAdmin(actor);
  const url = checkEndpointUrl(deps, request.url);
  const eventTypes = checkEventTypes(request.eventTypes);
  const secret = newWebhookSecret();
  const id = newEndpointId(deps.ids);
  const row = await deps.db.sql.begin(async (tx) => {
    // Serializes creations in one workspace, so the limit holds under concurrent requests.
    await lockWorkspace(tx, actor.workspaceId);
    if ((await countEndpoints(tx, actor.workspaceId)) >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw new ApiError(
        'conflict',
        `A workspace has at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one first.`,
      );
    }
    const created = await insertEndpoint(tx, actor.workspaceId, {
      id,
      url,
      description: request.description ?? '',
      eventTypes,
      secretSealed: deps.sealing.webhookSecrets.seal(id, secret),
      createdBy: actor.userId,
      now: deps.clock.now(),
    });
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'webhook_endpoint.created',
      endpointBody(created),
    );
    return created;
  });
  return { row, secret };
}

export async function handle(
  input: CreateWebhookEndpointInput,
  ctx: HandlerContext,
): Promise<CreateWebhookEndpointOutput> {
  const { url, event_types: eventTypes, description } = input.body;
  const { row, secret } = await createWebhookEndpoint(ctx.deps, actorFrom(ctx), { url, eventTypes, description });
  return { status: 201, body: { ...endpointBody(row), secret } };
}
