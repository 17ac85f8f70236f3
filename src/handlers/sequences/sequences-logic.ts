// Sequences as records: create, read (with a wait for a status change), list, edit (draft or paused, on the
// revision the caller read), delete (drafts never launched) and archive.
import { findSequence, deleteSequence as deleteRow, insertSequence, listSequences as listRows, sequenceStats, setSequenceStatus, updateSequenceFields, type SequenceFields, type SequenceRow, type SequenceStatus } from './sequences-data.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { waitForChange, type Watched } from '../operations/wait-for-change.ts';
import type { Queryable } from '../../db/queryable.ts';
import { sequenceFields, type SequenceInput } from './sequence-input.ts';
import { approvalUrl, emptyStats, sequenceEventData, type SequenceView } from './wire.ts';

export async function viewSequences(deps: Deps, q: Queryable, workspaceId: string, rows: SequenceRow[]): Promise<SequenceView[]> {
  const stats = rows.length ? await sequenceStats(q, workspaceId, rows.map((r) => r.id)) : new Map();
  return rows.map((row) => ({ row, stats: stats.get(row.id) ?? emptyStats, approvalUrl: approvalUrl(deps.config.publicBaseUrl, row.id) }));
}

export const viewSequence = async (deps: Deps, workspaceId: string, row: SequenceRow): Promise<SequenceView> => (await viewSequences(deps, deps.db.sql, workspaceId, [row]))[0];

export async function requireSequence(deps: Deps, q: Queryable, workspaceId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<SequenceRow> {
  const row = await findSequence(q, workspaceId, id, options);
  if (!row) throw new ApiError('not_found', `No sequence ${id} in this workspace.`);
  return row;
}

export async function createSequence(deps: Deps, actor: Actor, input: SequenceInput): Promise<SequenceView> {
  const fields = await sequenceFields(deps.db.sql, actor.workspaceId, input);
  const row = await deps.db.sql.begin((tx) => insertSequenceRecorded(deps, tx, actor, fields));
  return viewSequence(deps, actor.workspaceId, row);
}

/** Inserts a checked sequence and its event with `tx`: an agent run commits its own checkpoint with them. */
export async function insertSequenceRecorded(deps: Deps, tx: Queryable, actor: Actor, fields: SequenceFields): Promise<SequenceRow> {
  const created = await insertSequence(tx, actor.workspaceId, deps.ids, { ...fields, createdBy: actor.userId, now: deps.clock.now() });
  await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.created', sequenceEventData(created));
  return created;
}

/** Statuses that move without the caller: a person's decision, sending that ends or pauses, a re-approval. */
const MOVING = new Set<SequenceStatus>(['pending_approval', 'active', 'paused']);
const watchedSequence: Watched<SequenceRow> = { fingerprint: (row) => `${row.status}:${row.revision}`, settled: (row) => !MOVING.has(row.status) };

/**
 * With `waitSeconds`, answers as soon as the status changes (a person approved or rejected it, sending ended);
 * a draft, approved, completed or archived sequence at once: only the caller moves it on.
 */
export async function getSequence(deps: Deps, actor: Actor, request: { sequenceId: string; waitSeconds: number; signal?: AbortSignal }): Promise<SequenceView> {
  const read = () => requireSequence(deps, deps.db.sql, actor.workspaceId, request.sequenceId);
  const row = await waitForChange(deps, actor, { id: request.sequenceId, waitSeconds: request.waitSeconds, signal: request.signal }, read, watchedSequence);
  return viewSequence(deps, actor.workspaceId, row);
}

export async function listSequences(deps: Deps, actor: Actor, page: { statuses: SequenceStatus[]; before?: { at: string; id: string }; limit: number }): Promise<SequenceView[]> {
  return viewSequences(deps, deps.db.sql, actor.workspaceId, await listRows(deps.db.sql, actor.workspaceId, page));
}

/** The revision in `If-Match`: a bare number or an ETag such as `"3"` or `W/"3"`. */
export function revisionFromIfMatch(header: string): number {
  return Number(header.replace(/^W\//, '').replace(/"/g, ''));
}

export async function updateSequence(deps: Deps, actor: Actor, request: { sequenceId: string; ifMatch: number; patch: SequenceInput }): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireSequence(deps, tx, actor.workspaceId, request.sequenceId, { forUpdate: true });
    if (current.revision !== request.ifMatch) {
      throw new ApiError('revision_mismatch', `The sequence is at revision ${current.revision}, not ${request.ifMatch}: get it again and redo the change on it.`);
    }
    if (current.status !== 'draft' && current.status !== 'paused') {
      throw new ApiError('sequence_not_editable', `A ${current.status} sequence cannot be edited: only draft and paused ones can${current.status === 'active' ? ' (pause it first)' : current.status === 'pending_approval' || current.status === 'approved' ? ' (reject it back to draft first, or pause it after launch)' : ''}.`);
    }
    // An empty patch changes nothing, so it keeps the revision and any approval.
    if (Object.keys(request.patch).length === 0) return current;
    const fields = await sequenceFields(tx, actor.workspaceId, request.patch, current);
    const updated = await updateSequenceFields(tx, actor.workspaceId, current.id, fields, deps.clock.now());
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.updated', { ...sequenceEventData(updated), approval_voided: current.approval?.decision === 'approved' });
    return updated;
  });
  deps.resourceWatch.changed(row.id);
  return viewSequence(deps, actor.workspaceId, row);
}

export async function deleteSequence(deps: Deps, actor: Actor, sequenceId: string): Promise<{ id: string }> {
  await deps.db.sql.begin(async (tx) => {
    const current = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (!(await deleteRow(tx, actor.workspaceId, sequenceId))) {
      throw new ApiError('sequence_not_editable', `Only a draft that never sent can be deleted; this one is ${current.status}${current.launched_at ? ' and has been launched' : ''}. Archive it instead.`);
    }
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.deleted', { id: sequenceId });
  });
  return { id: sequenceId };
}

export async function archiveSequence(deps: Deps, actor: Actor, sequenceId: string): Promise<SequenceView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireSequence(deps, tx, actor.workspaceId, sequenceId, { forUpdate: true });
    if (current.status === 'archived') return current;
    const now = deps.clock.now();
    const archived = (await setSequenceStatus(tx, actor.workspaceId, sequenceId, { from: [current.status], to: 'archived', now, approval: current.approval })) as SequenceRow;
    await stopEnrollments(tx, actor.workspaceId, { sequenceId }, { status: 'stopped', reason: 'archived', now });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'email_sequence.archived', sequenceEventData(archived));
    return archived;
  });
  deps.resourceWatch.changed(row.id);
  return viewSequence(deps, actor.workspaceId, row);
}
