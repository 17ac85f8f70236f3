// Enrolling leads (enroll_leads_in_sequence, and launch_email_sequence's `enroll`): by ids, by import or by
// filter. Each lead is enrolled or skipped with a reason decided in SQL (suppressed, already enrolled,
// lacking a variable some step needs without a fallback), a page of candidates at a time, inside the
// caller's transaction so a launch that fails leaves nobody enrolled. Each enrollment is pinned to one of the
// sequence's mailboxes as it is inserted (mailbox-pinning.ts).
import {
  CANDIDATE_PAGE,
  countActivePinned,
  enrollmentCandidates,
  insertEnrollments,
  type EnrollSource,
} from './sequence-enrollments-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { SequenceRow } from './sequences-data.ts';
import { findImport } from '../leads/lead-imports-data.ts';
import type { Deps } from '../../deps.ts';
import type { LeadStage } from '../leads/leads-data.ts';
import { dispatchSequenceMessagesJob } from './sender.ts';
import { ApiError } from '../../errors.ts';
import { requiredVariables } from './template.ts';
import { assignMailboxes, sendableMailboxes } from './mailbox-pinning.ts';
import { allTemplates } from './variants.ts';

export type SkipReason = 'suppressed' | 'already_enrolled' | 'missing_variable' | 'not_found';

// A type, not an interface: the contract's `enrollment` of launch_email_sequence is an open object, which only
// a type literal is assignable to.
export type EnrollmentResult = {
  sequence_id: string;
  counts: {
    considered: number;
    enrolled: number;
    skipped: number;
    skipped_by_reason: Partial<Record<SkipReason, number>>;
  };
  results: Array<{
    lead_id: string;
    outcome: 'enrolled' | 'skipped';
    reason: SkipReason | null;
    detail: string | null;
  }>;
  results_truncated: boolean;
};

export interface EnrollRequest {
  lead_ids?: string[];
  import_id?: string;
  filter?: { tag?: string; q?: string; stage?: LeadStage[]; created_after?: string; created_before?: string };
}

const RESULTS_CAP = 1000;
const DAY_MS = 86_400_000;

export function enrollSource(request: EnrollRequest): EnrollSource {
  const given = [request.lead_ids, request.import_id, request.filter].filter((v) => v !== undefined).length;
  if (given > 1)
    throw new ApiError('validation_failed', 'Give exactly one of lead_ids, import_id or filter.', {
      errors: [{ pointer: '/', code: 'one_of', message: 'lead_ids, import_id or filter' }],
    });
  if (request.lead_ids) return { leadIds: request.lead_ids };
  if (request.import_id) return { importId: request.import_id };
  if (request.filter) {
    const f = request.filter;
    return {
      filter: {
        tag: f.tag,
        q: f.q?.trim() || undefined,
        stages: f.stage,
        createdAfter: f.created_after ? new Date(f.created_after) : undefined,
        createdBefore: f.created_before ? new Date(f.created_before) : undefined,
      },
    };
  }
  throw new ApiError('validation_failed', 'Give exactly one of lead_ids, import_id or filter.', {
    errors: [{ pointer: '/', code: 'one_of', message: 'lead_ids, import_id or filter' }],
  });
}

/** When a sending sequence's new enrollment has its first step due: now plus the step's wait. */
export const firstStepDue = (s: SequenceRow, now: Date): Date =>
  new Date(now.getTime() + (s.steps[0]?.wait_days ?? 0) * DAY_MS);

/** The first step's due time, or not yet when the sequence is not sending. */
export const firstDue = (s: SequenceRow, now: Date): Date | null =>
  s.status === 'active' ? firstStepDue(s, now) : null;

/** Enrolls within `tx`; the sequence must be locked by the caller. */
export async function enrollInTransaction(
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  s: SequenceRow,
  source: EnrollSource,
): Promise<EnrollmentResult> {
  if (s.status === 'completed' || s.status === 'archived')
    throw new ApiError('sequence_state_conflict', `Leads cannot join a ${s.status} sequence.`);
  if ('importId' in source && !(await findImport(tx, workspaceId, source.importId)))
    throw new ApiError('not_found', `No import ${source.importId} in this workspace.`);
  const required = requiredVariables(allTemplates(s.steps));
  const now = deps.clock.now();
  const result: EnrollmentResult = {
    sequence_id: s.id,
    counts: { considered: 0, enrolled: 0, skipped: 0, skipped_by_reason: {} },
    results: [],
    results_truncated: false,
  };
  const enrolledIds: string[] = [];
  const seen = new Set<string>();
  const mailboxes = await sendableMailboxes(deps, tx, workspaceId, s.sender_connector_ids);
  const pinned = await countActivePinned(tx, workspaceId, s.id);
  const skip = (leadId: string, reason: SkipReason, detail: string | null) => {
    result.counts.skipped += 1;
    result.counts.skipped_by_reason[reason] = (result.counts.skipped_by_reason[reason] ?? 0) + 1;
    result.results.push({ lead_id: leadId, outcome: 'skipped', reason, detail });
  };
  for (let after = ''; ; ) {
    const page = await enrollmentCandidates(tx, workspaceId, s.id, source, required, after);
    const eligible: string[] = [];
    for (const c of page) {
      seen.add(c.lead_id);
      if (c.suppressed)
        skip(c.lead_id, 'suppressed', 'The lead is unsubscribed, bounced, do-not-contact or on the suppression list.');
      else if (c.already) skip(c.lead_id, 'already_enrolled', null);
      else if (c.missing.length)
        skip(
          c.lead_id,
          'missing_variable',
          `No value for ${c.missing.map((v) => `{{${v}}}`).join(', ')}, which a step uses without a fallback.`,
        );
      else eligible.push(c.lead_id);
    }
    const inserted = await insertEnrollments(tx, workspaceId, deps.ids, {
      sequenceId: s.id,
      leadIds: eligible,
      connectorIds: assignMailboxes(mailboxes, pinned, eligible.length),
      nextDueAt: firstDue(s, now),
      now,
    });
    const insertedSet = new Set(inserted);
    for (const id of eligible) {
      if (insertedSet.has(id)) enrolledIds.push(id);
      else skip(id, 'already_enrolled', null);
    }
    if (page.length < CANDIDATE_PAGE) break;
    after = page[page.length - 1].lead_id;
  }
  if ('leadIds' in source)
    for (const id of source.leadIds) if (!seen.has(id)) skip(id, 'not_found', 'No such lead in this workspace.');
  result.counts.enrolled = enrolledIds.length;
  result.counts.considered = result.counts.enrolled + result.counts.skipped;
  const room = Math.max(0, RESULTS_CAP - result.results.length);
  result.results.push(
    ...enrolledIds
      .slice(0, room)
      .map((lead_id) => ({ lead_id, outcome: 'enrolled' as const, reason: null, detail: null })),
  );
  if (result.results.length > RESULTS_CAP || enrolledIds.length > room) {
    result.results = result.results.slice(0, RESULTS_CAP);
    result.results_truncated = true;
  }
  return result;
}
