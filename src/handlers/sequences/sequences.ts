import type { SequenceStatus } from './sequences-data.ts';
import type {
  ArchiveEmailSequenceInput,
  ArchiveEmailSequenceOutput,
  CreateEmailSequenceInput,
  CreateEmailSequenceOutput,
  DeleteEmailSequenceInput,
  DeleteEmailSequenceOutput,
  GetEmailSequenceInput,
  GetEmailSequenceOutput,
  ListEmailSequencesInput,
  ListEmailSequencesOutput,
  PreviewEmailSequenceInput,
  PreviewEmailSequenceOutput,
  UpdateEmailSequenceInput,
  UpdateEmailSequenceOutput,
} from '../../generated/handlers.ts';
import { previewSequence } from './preview.ts';
import { archiveSequence, createSequence, deleteSequence, getSequence, listSequences, revisionFromIfMatch, updateSequence } from './sequences-logic.ts';
import { sequenceBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly SequenceStatus[] = ['draft', 'pending_approval', 'approved', 'active', 'paused', 'completed', 'archived'];

export async function createEmailSequence(input: CreateEmailSequenceInput, ctx: HandlerContext): Promise<CreateEmailSequenceOutput> {
  return { status: 201, body: sequenceBody(await createSequence(ctx.deps, actorFrom(ctx), input.body)) };
}

export async function getEmailSequence(input: GetEmailSequenceInput, ctx: HandlerContext): Promise<GetEmailSequenceOutput> {
  const view = await getSequence(ctx.deps, actorFrom(ctx), { sequenceId: input.path.sequence_id, waitSeconds: input.query.wait_seconds ?? 0, signal: ctx.signal });
  return { status: 200, body: sequenceBody(view), headers: { ETag: `"${view.row.revision}"` } };
}

export async function listEmailSequences(input: ListEmailSequencesInput, ctx: HandlerContext): Promise<ListEmailSequencesOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_email_sequences', actor.workspaceId);
  const views = await listSequences(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(views, limit, sequenceBody, (v) => ({ at: v.row.created_at.toISOString(), id: v.row.id }), scope) };
}

export async function updateEmailSequence(input: UpdateEmailSequenceInput, ctx: HandlerContext): Promise<UpdateEmailSequenceOutput> {
  const view = await updateSequence(ctx.deps, actorFrom(ctx), { sequenceId: input.path.sequence_id, ifMatch: revisionFromIfMatch(input.headers['if-match']), patch: input.body });
  return { status: 200, body: sequenceBody(view), headers: { ETag: `"${view.row.revision}"` } };
}

export async function deleteEmailSequence(input: DeleteEmailSequenceInput, ctx: HandlerContext): Promise<DeleteEmailSequenceOutput> {
  const { id } = await deleteSequence(ctx.deps, actorFrom(ctx), input.path.sequence_id);
  return { status: 200, body: { id, deleted: true } };
}

export async function archiveEmailSequence(input: ArchiveEmailSequenceInput, ctx: HandlerContext): Promise<ArchiveEmailSequenceOutput> {
  return { status: 200, body: sequenceBody(await archiveSequence(ctx.deps, actorFrom(ctx), input.path.sequence_id)) };
}

export async function previewEmailSequence(input: PreviewEmailSequenceInput, ctx: HandlerContext): Promise<PreviewEmailSequenceOutput> {
  return { status: 200, body: await previewSequence(ctx.deps, actorFrom(ctx), { sequenceId: input.path.sequence_id, leadIds: input.body?.lead_ids }) };
}
