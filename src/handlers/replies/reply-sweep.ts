// Replies a process left `sending` (it died between committing `sending` and recording the provider's
// answer) become `uncertain` after a grace long enough for any live send to have ended: the provider may
// have delivered them, so they are never sent again, and the person sees why.
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { defineJob } from '../../jobs/job-kind.ts';
import { recordEvent } from '../events/record-event.ts';
import { markStaleSendingUncertainAcrossWorkspaces } from './conversation-replies-data.ts';
import { replyEventData } from './reply-wire.ts';

/** Longer than a send's provider timeout and its one token refresh. */
export const STALE_SENDING_MS = 5 * 60 * 1000;

export async function sweepStaleReplySends(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const swept = await deps.db.sql.begin(async (tx) => {
    const rows = await markStaleSendingUncertainAcrossWorkspaces(tx, new Date(now.getTime() - STALE_SENDING_MS), now);
    for (const row of rows)
      await recordEvent(
        deps,
        tx,
        row.workspace_id,
        { type: 'system', id: null },
        'conversation_reply.uncertain',
        replyEventData(row),
      );
    return rows;
  });
  for (const row of swept) if (row.lead_id) deps.resourceWatch.changed(row.lead_id);
  return swept.length;
}

export const sweepStaleReplySendsJob = defineJob({
  name: 'replies.sweep-stale-sends',
  payload: z.object({}).strict(),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  handler: async (_payload, _job, deps: Deps) => {
    await sweepStaleReplySends(deps);
  },
});
