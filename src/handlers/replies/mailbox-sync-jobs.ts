// The mailbox sync as jobs: `mailbox.sync` runs one mailbox's sync (one queued and one running per
// mailbox), and `mailbox.sync-sweep`, every minute, queues one for every connected Gmail mailbox that may
// read its replies. A push receiver (Gmail's users.watch) would queue `mailbox.sync` the same way.
import { z } from 'zod';
import { GMAIL_METADATA_SCOPE, GMAIL_READONLY_SCOPE } from '../connectors/google/google-endpoints.ts';
import type { Deps } from '../../deps.ts';
import { defineJob } from '../../jobs/job-kind.ts';
import { readableMailboxesAcrossWorkspaces } from './mailbox-syncs-data.ts';
import { syncMailbox } from './sync-mailbox.ts';

export interface SyncPayload {
  workspace_id: string;
  connector_id: string;
}

export const syncMailboxJob = defineJob({
  name: 'mailbox.sync',
  payload: z.object({ workspace_id: z.string().min(1), connector_id: z.string().min(1) }).strict(),
  policy: 'stately',
  singletonKey: (p: SyncPayload) => p.connector_id,
  // A run records what went wrong in last_error and ends; the next minute's sweep is the retry.
  retry: { limit: 0, delaySeconds: 30, backoff: false },
  expireInSeconds: 10 * 60,
  handler: async (payload, job, deps: Deps) => {
    await syncMailbox(deps, payload.workspace_id, payload.connector_id, { signal: job.signal });
  },
});

export const sweepMailboxSyncsJob = defineJob({
  name: 'mailbox.sync-sweep',
  payload: z.object({}).strict(),
  policy: 'singleton',
  retry: { limit: 0, delaySeconds: 30, backoff: false },
  expireInSeconds: 5 * 60,
  handler: async (_payload, _job, deps: Deps) => {
    const scopes = [GMAIL_METADATA_SCOPE, GMAIL_READONLY_SCOPE];
    for (const c of await readableMailboxesAcrossWorkspaces(deps.db.sql, scopes))
      await deps.jobs.enqueue(syncMailboxJob, { workspace_id: c.workspace_id, connector_id: c.id });
  },
});
