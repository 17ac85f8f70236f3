import type { EnrollmentStatus } from './sequence-enrollments-data.ts';
import type { MessageStatus } from './sequence-messages-data.ts';
import type {
  ApproveEmailSequenceInput,
  ApproveEmailSequenceOutput,
  EnrollLeadsInSequenceInput,
  EnrollLeadsInSequenceOutput,
  LaunchEmailSequenceInput,
  LaunchEmailSequenceOutput,
  ListSentMessagesInput,
  ListSentMessagesOutput,
  ListSequenceEnrollmentsInput,
  ListSequenceEnrollmentsOutput,
  PauseEmailSequenceInput,
  PauseEmailSequenceOutput,
  RejectEmailSequenceInput,
  RejectEmailSequenceOutput,
  RemoveLeadFromSequenceInput,
  RemoveLeadFromSequenceOutput,
  ResumeEmailSequenceInput,
  ResumeEmailSequenceOutput,
  SubmitEmailSequenceForApprovalInput,
  SubmitEmailSequenceForApprovalOutput,
} from '../../generated/handlers.ts';
import { approveSequence, rejectSequence, submitForApproval } from './approval.ts';
import { enrollLeads, listEnrollments, removeLead } from './enroll.ts';
import { launchSequence, pauseSequence, resumeSequence } from './launch.ts';
import { listSentMessages as listMessages } from './messages.ts';
import { enrollmentBody, messageBody, sequenceBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const enrollmentStatuses: readonly EnrollmentStatus[] = ['active', 'completed', 'stopped', 'removed'];
const messageStatuses: readonly MessageStatus[] = ['scheduled', 'sending', 'sent', 'failed', 'cancelled', 'uncertain'];

export async function submitEmailSequenceForApproval(input: SubmitEmailSequenceForApprovalInput, ctx: HandlerContext): Promise<SubmitEmailSequenceForApprovalOutput> {
  return { status: 200, body: sequenceBody(await submitForApproval(ctx.deps, actorFrom(ctx), input.path.sequence_id)) };
}

export async function approveEmailSequence(input: ApproveEmailSequenceInput, ctx: HandlerContext): Promise<ApproveEmailSequenceOutput> {
  const view = await approveSequence(ctx.deps, actorFrom(ctx), { sequenceId: input.path.sequence_id, revision: input.body.revision, note: input.body.note });
  return { status: 200, body: sequenceBody(view) };
}

export async function rejectEmailSequence(input: RejectEmailSequenceInput, ctx: HandlerContext): Promise<RejectEmailSequenceOutput> {
  return { status: 200, body: sequenceBody(await rejectSequence(ctx.deps, actorFrom(ctx), { sequenceId: input.path.sequence_id, note: input.body.note })) };
}

export async function enrollLeadsInSequence(input: EnrollLeadsInSequenceInput, ctx: HandlerContext): Promise<EnrollLeadsInSequenceOutput> {
  return { status: 200, body: await enrollLeads(ctx.deps, actorFrom(ctx), { sequenceId: input.path.sequence_id, enroll: input.body }) };
}

export async function listSequenceEnrollments(input: ListSequenceEnrollmentsInput, ctx: HandlerContext): Promise<ListSequenceEnrollmentsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_sequence_enrollments:${input.path.sequence_id}`, actor.workspaceId);
  const rows = await listEnrollments(ctx.deps, actor, {
    sequenceId: input.path.sequence_id,
    statuses: commaList(input.query.status, 'status', enrollmentStatuses),
    after: decodeCursor(input.query.cursor, scope),
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, enrollmentBody, (r) => ({ at: r.enrolled_at.toISOString(), id: r.id }), scope) };
}

export async function removeLeadFromSequence(input: RemoveLeadFromSequenceInput, ctx: HandlerContext): Promise<RemoveLeadFromSequenceOutput> {
  return { status: 200, body: enrollmentBody(await removeLead(ctx.deps, actorFrom(ctx), { sequenceId: input.path.sequence_id, leadId: input.path.lead_id })) };
}

export async function launchEmailSequence(input: LaunchEmailSequenceInput, ctx: HandlerContext): Promise<LaunchEmailSequenceOutput> {
  const result = await launchSequence(ctx.deps, actorFrom(ctx), { sequenceId: input.path.sequence_id, enroll: input.body?.enroll });
  return { status: 200, body: { sequence: sequenceBody(result.sequence), enrollment: result.enrollment as unknown as Record<string, unknown> | null, already_active: result.already_active } };
}

export async function pauseEmailSequence(input: PauseEmailSequenceInput, ctx: HandlerContext): Promise<PauseEmailSequenceOutput> {
  return { status: 200, body: sequenceBody(await pauseSequence(ctx.deps, actorFrom(ctx), input.path.sequence_id)) };
}

export async function resumeEmailSequence(input: ResumeEmailSequenceInput, ctx: HandlerContext): Promise<ResumeEmailSequenceOutput> {
  return { status: 200, body: sequenceBody(await resumeSequence(ctx.deps, actorFrom(ctx), input.path.sequence_id)) };
}

export async function listSentMessages(input: ListSentMessagesInput, ctx: HandlerContext): Promise<ListSentMessagesOutput> {
  const actor = actorFrom(ctx);
  const { query } = input;
  const limit = query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_sent_messages', actor.workspaceId);
  const statuses = commaList(query.status, 'status', messageStatuses);
  const rows = await listMessages(ctx.deps, actor, {
    sequenceId: query.sequence_id,
    leadId: query.lead_id,
    // Outside, a reserved message is still scheduled.
    statuses: statuses.includes('scheduled') ? [...statuses, 'claimed'] : statuses,
    before: decodeCursor(query.cursor, scope),
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, messageBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
