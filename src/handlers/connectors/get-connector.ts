import type { GetConnectorInput, GetConnectorOutput } from '../../generated/handlers.ts';
import { getConnector as get } from './get-connector-logic.ts';
import { connectorBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function getConnector(input: GetConnectorInput, ctx: HandlerContext): Promise<GetConnectorOutput> {
  const row = await get(ctx.deps, actorFrom(ctx), { connectorId: input.path.connector_id, waitSeconds: input.query.wait_seconds ?? 0, signal: ctx.signal });
  return { status: 200, body: connectorBody(row) };
}
