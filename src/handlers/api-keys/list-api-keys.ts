import type { ListApiKeysInput, ListApiKeysOutput } from '../../generated/handlers.ts';
import { requireAdmin, type HandlerContext } from '../context.ts';
import { decodeCursor, page } from '../pagination.ts';
import { apiKeyBody, type ApiKeyRow } from './shape.ts';

export async function listApiKeys(input: ListApiKeysInput, ctx: HandlerContext): Promise<ListApiKeysOutput> {
  const principal = requireAdmin(ctx);
  const { sql } = ctx.deps;
  const limit = input.query.limit ?? 20;
  const before = decodeCursor(input.query.cursor);
  const rows = await sql<ApiKeyRow[]>`
    select id, name, prefix, scopes, created_by, created_at, last_used_at, revoked_at from api_keys
    where workspace_id = ${principal.workspaceId}
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${limit + 1}`;
  return { status: 200, body: page(rows, limit, apiKeyBody, (r) => ({ at: r.created_at.toISOString(), id: r.id })) };
}
