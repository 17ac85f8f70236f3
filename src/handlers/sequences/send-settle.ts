// Ends a claimed message (with an event when it failed or is uncertain), and optionally the lead's enrollment.
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import type { MessageRow } from './sequence-messages-data.ts';
import { settleMessage, type MessageEnd } from './sequence-sends-data.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import { recordEvent } from '../events/record-event.ts';
import { messageEventData } from './wire.ts';

export const SYSTEM = { type: 'system' as const, id: null };

export async function settle(
  deps: Deps,
  tx: Queryable,
  m: MessageRow,
  token: string,
  end: MessageEnd,
  stop?: string,
): Promise<void> {
  const now = deps.clock.now();
  const row = await settleMessage(tx, m.workspace_id, m.id, token, end, now);
  if (stop)
    await stopEnrollments(
      tx,
      m.workspace_id,
      { enrollmentId: m.enrollment_id },
      { status: 'stopped', reason: stop, now },
    );
  if (row && (end.status === 'failed' || end.status === 'uncertain'))
    await recordEvent(deps, tx, m.workspace_id, SYSTEM, `email_message.${end.status}`, messageEventData(row));
}
