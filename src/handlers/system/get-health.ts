import { ping } from '../../db/queryable.ts';
import { ApiError } from '../../errors.ts';
import type { GetHealthInput, GetHealthOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(_input: GetHealthInput, ctx: HandlerContext): Promise<GetHealthOutput> {
  try {
    await ping(ctx.deps.db.sql);
  } catch (error) {
    ctx.deps.log.error({ err: error }, 'health check: database query failed');
    throw new ApiError('service_unavailable', 'The database does not answer.');
  }
  return { status: 200, body: { status: 'ok', database: 'ok' } };
}
