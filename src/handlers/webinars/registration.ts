// Registering a person for a webinar, whether an agent adds them (add_webinar_registrants) or they use the
// public page (webinar_register). Capacity is checked under the webinar's row lock, which the caller holds,
// so two registrations racing for the last seat cannot both get it.
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { recordEvent } from '../events/record-event.ts';
import type { EventActor } from '../events/events-data.ts';
import { normalizeEmail } from '../leads/lead-email.ts';
import { emailHash } from '../leads/lead-suppressions-data.ts';
import {
  countRegistered,
  insertRegistrant,
  isSuppressed,
  type NewRegistrant,
  type RegistrantRow,
} from './webinar-registrants-data.ts';
import type { WebinarRow } from './webinars-data.ts';
import { registrantEventData } from './wire.ts';

/** The actor of what the public pages do: nobody signed in. */
export const PUBLIC: EventActor = { type: 'system', id: null };

export type SkipReason = 'invalid' | 'duplicate' | 'full' | 'not_found' | 'suppressed';

/** Why registration is closed now, if it is. */
export function closedBecause(w: WebinarRow, now: Date): 'cancelled' | 'started' | null {
  if (w.status === 'cancelled') return 'cancelled';
  return now >= w.start_at ? 'started' : null;
}

/** One registration under the webinar's lock: the person, or why not. */
export async function registerOne(
  deps: Deps,
  tx: Queryable,
  w: WebinarRow,
  person: NewRegistrant,
  actor: EventActor,
): Promise<RegistrantRow | SkipReason> {
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
