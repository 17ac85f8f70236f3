import type { StartConnectorOauthInput, StartConnectorOauthOutput } from '../../generated/handlers.ts';
import { startConnectorOAuth as start } from './start-connector-oauth-logic.ts';
import { connectorBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function startConnectorOauth(input: StartConnectorOauthInput, ctx: HandlerContext): Promise<StartConnectorOauthOutput> {
  const row = await start(ctx.deps, actorFrom(ctx), { provider: input.body.provider, reconnectConnectorId: input.body.reconnect_connector_id });
  return { status: 201, body: connectorBody(row) };
}
