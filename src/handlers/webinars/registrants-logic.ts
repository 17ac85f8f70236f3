// Registration, by an agent (add_webinar_registrants: up to 100 items, a result per item) or by a person on
// the public page; removal; and the join link. Capacity is checked under the webinar's row lock, so two
// registrations racing for the last seat cannot both get it.
import { emailHash } from '../leads/lead-suppressions-data.ts';
import { findLead } from '../leads/leads-data.ts';
import { normalizeEmail } from '../leads/lead-fields.ts';
import type { Queryable } from '../../db/queryable.ts';
import { countRegistered, findRegistrant, insertRegistrant, isSuppressed, listRegistrants as listRows, markJoined, removeRegistrantRow, type NewRegistrant, type RegistrantRow, type RegistrantStatus } from './webinar-registrants-data.ts';
import { mailOfRegistrants, skipScheduled, type RegistrantMailRow } from './webinar-mail-data.ts';
import { findWebinar, findWebinarByPublicId, type WebinarRow } from './webinars-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { verifyJoin } from './tokens.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import type { EventActor } from '../events/events-data.ts';
import { planRegistrantMail } from './mail-plan.ts';
import { requireWebinar } from './webinars-logic.ts';
import { registrantEventData } from './wire.ts';

const PUBLIC: EventActor = { type: 'system', id: null };

export type SkipReason = 'invalid' | 'duplicate' | 'full' | 'not_found' | 'suppressed';
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

/** Why registration is closed now, if it is. */
export function closedBecause(w: WebinarRow, now: Date): 'cancelled' | 'started' | null {
  if (w.status === 'cancelled') return 'cancelled';
  return now >= w.start_at ? 'started' : null;
}

/** One registration under the webinar's lock: the person, or why not. */
async function registerOne(deps: Deps, tx: Queryable, w: WebinarRow, person: NewRegistrant, actor: EventActor): Promise<RegistrantRow | SkipReason> {
  // The address a webinar invitation is sent to: an e-mail address by the rules leads follow, not merely x@y.z.
  const address = normalizeEmail(person.email);
  if (!address.ok) return 'invalid';
  const email = address.email;
  if (await isSuppressed(tx, w.workspace_id, emailHash(email))) return 'suppressed';
  if (w.capacity !== null && (await countRegistered(tx, w.workspace_id, w.id)) >= w.capacity) return 'full';
  const row = await insertRegistrant(tx, w.workspace_id, deps.ids, w.id, { ...person, email }, deps.clock.now());
  if (!row) return 'duplicate';
  await recordEvent(deps, tx, w.workspace_id, actor, 'webinar_registrant.added', registrantEventData(row));
  return row;
}

async function personOf(tx: Queryable, workspaceId: string, item: RegistrantItem): Promise<NewRegistrant | SkipReason> {
  if (item.lead_id !== undefined) {
    if (item.email !== undefined) return 'invalid';
    const lead = await findLead(tx, workspaceId, item.lead_id);
    if (!lead) return 'not_found';
    if (lead.status !== 'active') return 'suppressed';
    return { email: lead.email, first_name: lead.first_name ?? null, last_name: lead.last_name ?? null, lead_id: lead.id, source: 'api' };
  }
  if (item.email === undefined) return 'invalid';
  return { email: item.email, first_name: item.first_name ?? null, last_name: item.last_name ?? null, lead_id: null, source: 'api' };
}

function refuseClosed(w: WebinarRow, now: Date): void {
  const closed = closedBecause(w, now);
  if (closed === 'cancelled') throw new ApiError('webinar_cancelled', `Webinar ${w.id} was cancelled: nobody can register. schedule_webinar a new one.`);
  if (closed === 'started') throw new ApiError('webinar_closed', `Webinar ${w.id} has started (${w.start_at.toISOString()}): registration is closed.`);
}

export async function addRegistrants(deps: Deps, actor: Actor, webinarId: string, items: RegistrantItem[]): Promise<{ added: number; skipped: number; results: ItemResult[] }> {
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

export type PageOutcome = { kind: 'not_found' } | { kind: 'registered' | 'cancelled' | 'started' | SkipReason; webinar: WebinarRow };

/** A person's own registration from the public page. */
export async function registerFromPage(deps: Deps, publicId: string, form: { email: string; first_name: string | null; last_name: string | null }): Promise<PageOutcome> {
  return deps.db.sql.begin(async (tx): Promise<PageOutcome> => {
    const w = await findWebinarByPublicId(tx, publicId, { forUpdate: true });
    if (!w) return { kind: 'not_found' };
    const closed = closedBecause(w, deps.clock.now());
    if (closed) return { kind: closed, webinar: w };
    const outcome = await registerOne(deps, tx, w, { ...form, lead_id: null, source: 'page' }, PUBLIC);
    if (typeof outcome === 'string') return { kind: outcome, webinar: w };
    await planRegistrantMail(deps, tx, w, [outcome]);
    return { kind: 'registered', webinar: w };
  });
}

/** A page of registrants, and the mail of each (one query for the page). */
export async function listRegistrants(
  deps: Deps,
  actor: Actor,
  webinarId: string,
  page: { statuses: RegistrantStatus[]; after?: { at: string; id: string }; limit: number },
): Promise<{ rows: RegistrantRow[]; mail: RegistrantMailRow[] }> {
  await requireWebinar(deps.db.sql, actor.workspaceId, webinarId);
  const rows = await listRows(deps.db.sql, actor.workspaceId, webinarId, page);
  return { rows, mail: await mailOfRegistrants(deps.db.sql, actor.workspaceId, rows.map((r) => r.id)) };
}

export const registrantMail = (deps: Deps, r: RegistrantRow): Promise<RegistrantMailRow[]> => mailOfRegistrants(deps.db.sql, r.workspace_id, [r.id]);

export async function removeRegistrant(deps: Deps, actor: Actor, webinarId: string, registrantId: string): Promise<RegistrantRow> {
  return deps.db.sql.begin(async (tx) => {
    await requireWebinar(tx, actor.workspaceId, webinarId, { forUpdate: true });
    const current = await findRegistrant(tx, actor.workspaceId, registrantId);
    if (!current || current.webinar_id !== webinarId) throw new ApiError('not_found', `No registrant ${registrantId} of webinar ${webinarId} in this workspace.`);
    if (current.status === 'removed') return current;
    const removed = (await removeRegistrantRow(tx, actor.workspaceId, registrantId, deps.clock.now())) as RegistrantRow;
    await skipScheduled(tx, actor.workspaceId, { registrantId, kinds: ['confirmation', 'update', 'reminder_24h', 'reminder_1h'] }, 'registrant_removed');
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webinar_registrant.removed', registrantEventData(removed));
    return removed;
  });
}

export type JoinOutcome = { kind: 'not_found' } | { kind: 'cancelled'; webinar: WebinarRow } | { kind: 'join'; meetingUrl: string };

/** A join link used: the first use is recorded (and its event), every use goes to the meeting. */
export async function joinByToken(deps: Deps, token: string): Promise<JoinOutcome> {
  const target = verifyJoin(deps.auth.apiKeyPepper, token);
  if (!target) return { kind: 'not_found' };
  return deps.db.sql.begin(async (tx): Promise<JoinOutcome> => {
    const registrant = await findRegistrant(tx, target.workspaceId, target.registrantId);
    if (!registrant || registrant.status !== 'registered') return { kind: 'not_found' };
    const w = (await findWebinar(tx, target.workspaceId, registrant.webinar_id)) as WebinarRow;
    if (w.status === 'cancelled') return { kind: 'cancelled', webinar: w };
    const joined = await markJoined(tx, target.workspaceId, registrant.id, deps.clock.now());
    if (joined) await recordEvent(deps, tx, target.workspaceId, PUBLIC, 'webinar_registrant.joined', registrantEventData(joined));
    return { kind: 'join', meetingUrl: w.meeting_url };
  });
}
