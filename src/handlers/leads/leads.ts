import type { LeadStatus } from './leads-data.ts';
import type {
  CreateLeadInput,
  CreateLeadOutput,
  DeleteLeadInput,
  DeleteLeadOutput,
  GetLeadInput,
  GetLeadOutput,
  ListLeadsInput,
  ListLeadsOutput,
  UnsubscribeLeadInput,
  UnsubscribeLeadOutput,
  UpdateLeadInput,
  UpdateLeadOutput,
} from '../../generated/handlers.ts';
import { createLead as create, deleteLead as remove, getLead as find, listLeads as list, unsubscribeLead as unsubscribe, updateLead as update } from './leads-logic.ts';
import { leadBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly LeadStatus[] = ['active', 'unsubscribed', 'bounced', 'do_not_contact'];

export async function listLeads(input: ListLeadsInput, ctx: HandlerContext): Promise<ListLeadsOutput> {
  const actor = actorFrom(ctx);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_leads', actor.workspaceId);
  const before = decodeCursor(query.cursor, scope);
  const rows = await list(ctx.deps, actor, {
    q: query.q?.trim() || undefined,
    statuses: commaList(query.status, 'status', statuses),
    tag: query.tag,
    importId: query.import_id,
    createdAfter: query.created_after === undefined ? undefined : new Date(query.created_after),
    createdBefore: query.created_before === undefined ? undefined : new Date(query.created_before),
    before,
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, leadBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}

export async function getLead(input: GetLeadInput, ctx: HandlerContext): Promise<GetLeadOutput> {
  return { status: 200, body: leadBody(await find(ctx.deps, actorFrom(ctx), input.path.lead_id)) };
}

export async function createLead(input: CreateLeadInput, ctx: HandlerContext): Promise<CreateLeadOutput> {
  return { status: 201, body: leadBody(await create(ctx.deps, actorFrom(ctx), input.body as Record<string, unknown>)) };
}

export async function updateLead(input: UpdateLeadInput, ctx: HandlerContext): Promise<UpdateLeadOutput> {
  return { status: 200, body: leadBody(await update(ctx.deps, actorFrom(ctx), input.path.lead_id, input.body as Record<string, unknown>)) };
}

export async function deleteLead(input: DeleteLeadInput, ctx: HandlerContext): Promise<DeleteLeadOutput> {
  const { id } = await remove(ctx.deps, actorFrom(ctx), input.path.lead_id);
  return { status: 200, body: { id, deleted: true } };
}

export async function unsubscribeLead(input: UnsubscribeLeadInput, ctx: HandlerContext): Promise<UnsubscribeLeadOutput> {
  return { status: 200, body: leadBody(await unsubscribe(ctx.deps, actorFrom(ctx), input.path.lead_id)) };
}
