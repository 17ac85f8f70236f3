// An agent registers people (up to 100 items): each item is added or skipped with a reason, and the added
// ones get their confirmation and reminders planned.
import type { AddWebinarRegistrantsInput, AddWebinarRegistrantsOutput } from '../../generated/handlers.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor } from '../events/record-event.ts';
import { findLead } from '../leads/leads-data.ts';
import { planRegistrantMail } from './mail-plan.ts';
import { closedBecause, registerOne, type SkipReason } from './registration.ts';
import { requireWebinar } from './webinar-record.ts';
import type { NewRegistrant, RegistrantRow } from './webinar-registrants-data.ts';
import type { WebinarRow } from './webinars-data.ts';

export interface ItemResult {
  index: number;
  status: 'added' | 'skipped';
  reason: SkipReason | null;
  registrant_id: string | null;
}
export interface RegistrantItem {
  email?: string;
  first_name?: string;
  last_name?: string;
  lead_id?: string;
}

async function personOf(tx: Queryable, workspaceId: string, item: RegistrantItem): Promise<NewRegistrant | SkipReason> {
  if (item.lead_id !== undefined) {
    if (item.email !== undefined) return 'invalid';
    const lead = await findLead(tx, workspaceId, item.lead_id);
    if (!lead) return 'not_found';
    if (lead.status !== 'active') return 'suppressed';
    return {
      email: lead.email,
      first_name: lead.first_name ?? null,
      last_name: lead.last_name ?? null,
      lead_id: lead.id,
      source: 'api',
    };
  }
  if (item.email === undefined) return 'invalid';
  return {
    email: item.email,
    first_name: item.first_name ?? null,
    last_name: item.last_name ?? null,
    lead_id: null,
    source: 'api',
  };
}

function refuseClosed(w: WebinarRow, now: Date): void {
  const closed = closedBecause(w, now);
  if (closed === 'cancelled')
    throw new ApiError(
      'webinar_cancelled',
      `Webinar ${w.id} was cancelled: nobody can register. schedule_webinar a new one.`,
    );
  if (closed === 'started')
    throw new ApiError(
      'webinar_closed',
      `Webinar ${w.id} has started (${w.start_at.toISOString()}): registration is closed.`,
    );
}

export async function addWebinarRegistrants(
  deps: Deps,
  actor: Actor,
  webinarId: string,
  items: RegistrantItem[],
): Promise<{ added: number; skipped: number; results: ItemResult[] }> {
  return deps.db.sql.begin(async (tx) => {
    const w = await requireWebinar(tx, actor.workspaceId, webinarId, { forUpdate: true });
    refuseClosed(w, deps.clock.now());
    const results: ItemResult[] = [];
    const added: RegistrantRow[] = [];
    for (const [index, item] of items.entries()) {
      const person = await personOf(tx, actor.workspaceId, item);
      const outcome = typeof person === 'string' ? person : await registerOne(deps, tx, w, person, eventActor(actor));
      if (typeof outcome === 'string') results.push({ index, status: 'skipped', reason: outcome, registrant_id: null });
      else {
        added.push(outcome);
        results.push({ index, status: 'added', reason: null, registrant_id: outcome.id });
      }
    }
    await planRegistrantMail(deps, tx, w, added);
    return { added: added.length, skipped: items.length - added.length, results };
  });
}

export async function handle(
  input: AddWebinarRegistrantsInput,
  ctx: HandlerContext,
): Promise<AddWebinarRegistrantsOutput> {
  return {
    status: 200,
    body: await addWebinarRegistrants(ctx.deps, actorFrom(ctx), input.path.webinar_id, input.body.registrants),
  };
}
