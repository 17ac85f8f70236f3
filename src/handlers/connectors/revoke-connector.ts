import type { RevokeConnectorInput, RevokeConnectorOutput } from '../../generated/handlers.ts';
import { revokeConnector as revoke } from './revoke-connector-logic.ts';
import { connectorBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function revokeConnector(input: RevokeConnectorInput, ctx: HandlerContext): Promise<RevokeConnectorOutput> {
  return { status: 200, body: connectorBody(await revoke(ctx.deps, actorFrom(ctx), input.path.connector_id)) };
}
