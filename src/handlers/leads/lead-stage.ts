// A lead's stage: where it is in the conversation, apart from its suppression status. The service moves it
// forward only (a message sent: new -> contacted; a reply: new/contacted -> replied), in the transaction
// that records the send or the reply, and never back from a stage a person or an agent set; people and
// agents set any stage through update_lead_stage. Every change is a `lead.stage_changed` event, recorded
// in the transaction of the change, so webhooks see it exactly when it commits.
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import type { EventActor } from '../events/events-data.ts';
import { recordEvent, recordEvents } from '../events/record-event.ts';
import { setLeadStage, setLeadStages, type LeadRow, type LeadStage } from './leads-data.ts';

const SYSTEM: EventActor = { type: 'system', id: null };

/** Sets the stage (from any of `from`, when given) and records the event; undefined when nothing changed. */
export async function changeLeadStage(
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  leadId: string,
  change: { stage: LeadStage; from?: LeadStage[]; by: EventActor; note?: string | null },
): Promise<LeadRow | undefined> {
  const row = await setLeadStage(tx, workspaceId, leadId, {
    stage: change.stage,
    from: change.from,
    now: deps.clock.now(),
  });
  if (!row) return undefined;
  const { previous_stage: from, ...lead } = row;
  await recordEvent(deps, tx, workspaceId, change.by, 'lead.stage_changed', {
    id: lead.id,
    from,
    to: lead.stage,
    by: change.by.type,
    note: change.note ?? null,
  });
  return lead;
}

/** A sequence message was sent to the lead: `new` becomes `contacted`; any later stage stays. */
export const markContacted = (deps: Deps, tx: Queryable, workspaceId: string, leadId: string) =>
  changeLeadStage(deps, tx, workspaceId, leadId, { stage: 'contacted', from: ['new'], by: SYSTEM });

/** The lead answered in words: `new` or `contacted` becomes `replied`; a stage a person set stays. */
export const markReplied = (deps: Deps, tx: Queryable, workspaceId: string, leadId: string) =>
  changeLeadStage(deps, tx, workspaceId, leadId, { stage: 'replied', from: ['new', 'contacted'], by: SYSTEM });

/** Sequence messages were sent to these leads (a batch of sends): each `new` one becomes `contacted`. */
export async function markContactedMany(deps: Deps, tx: Queryable, workspaceId: string, leadIds: string[]) {
  const moved = await setLeadStages(tx, workspaceId, leadIds, {
    stage: 'contacted',
    from: ['new'],
    now: deps.clock.now(),
  });
  await recordEvents(
    deps,
    tx,
    workspaceId,
    SYSTEM,
    moved.map((lead) => ({
      type: 'lead.stage_changed',
      data: { id: lead.id, from: lead.previous_stage, to: lead.stage, by: SYSTEM.type, note: null },
    })),
  );
}
