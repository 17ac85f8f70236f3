// Asks the dispatcher to look for due messages now rather than at its next minute: enqueued in the
// transaction that made messages due (launch, resume, enrollment), deduplicated to one waiting run.
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { dispatchSequenceMessagesJob } from './sender.ts';

export async function kickSender(deps: Deps, tx: Queryable): Promise<void> {
  await deps.jobs.enqueue(dispatchSequenceMessagesJob, {}, { tx });
}
