// The service's job kinds and recurring schedules, built from Deps (their handlers call the same
// operations as requests do) and registered by createServices, so the service and a separate
// worker process run the same kinds. Operations enqueue them through `deps.jobKinds`.
import { z } from 'zod';
import type { Deps } from '../deps.ts';
import { sweepIdempotencyKeys } from '../http/idempotency-data.ts';
import { sweepStaleOperationsJob, type SweepOperationsPayload } from '../handlers/operations/sweep-stale.ts';
import type { OperationJobKind } from '../handlers/operations/operation-job.ts';
import { webhookDeliveryJob, type DeliverPayload } from '../handlers/webhooks/deliver.ts';
import { sendTestWebhookJob } from '../handlers/webhooks/send-test-webhook-logic.ts';
import { knowledgeIngestJob } from '../handlers/knowledge/crawl.ts';
import { leadImportJob } from '../handlers/leads/bulk-import.ts';
import { leadExportJob, sweepLeadExportsJob } from '../handlers/leads/export.ts';
import { sequenceDispatchJob, sequenceMailboxJob, type MailboxPayload } from '../handlers/sequences/sender.ts';
import { agentRunJob, type RunPayload } from '../handlers/agents/run-job.ts';
import { agentRunSweepJob } from '../handlers/agents/resume.ts';
import { adLaunchJob, type LaunchPayload as AdLaunchPayload } from '../handlers/ads/launch-job.ts';
import { adSyncJob } from '../handlers/ads/sync.ts';
import { webinarMailJob, webinarReminderJob, type ReminderPayload } from '../handlers/webinars/send-mail.ts';
import { blogPublishDueJob } from '../handlers/blogs/publish.ts';
import { defineJob, type JobKind } from './job-kind.ts';
import type { JobQueue } from './jobs.ts';
import { sweepEffects } from './run-once.ts';

/** Deletes job checkpoints (job_effects) long after any job that wrote them can still retry. */
export function sweepJobEffects(deps: Pick<Deps, 'db'>): JobKind<{ olderThanDays: number }> {
  return defineJob({
    name: 'jobs.sweep-effects',
    payload: z.object({ olderThanDays: z.number().int().min(1) }),
    policy: 'singleton',
    retry: { limit: 3, delaySeconds: 60, backoff: true },
    handler: async ({ olderThanDays }) => {
      await sweepEffects(deps.db.sql, olderThanDays);
    },
  });
}

/** Deletes idempotency records past their 24 h; expired ones are already treated as absent, this keeps the table small. */
export function sweepIdempotency(deps: Pick<Deps, 'db' | 'clock'>): JobKind<Record<string, never>> {
  return defineJob({
    name: 'http.sweep-idempotency-keys',
    payload: z.object({}).strict(),
    policy: 'singleton',
    retry: { limit: 3, delaySeconds: 60, backoff: true },
    handler: async () => {
      await sweepIdempotencyKeys(deps.db.sql, deps.clock.now());
    },
  });
}

export interface ServiceJobKinds {
  sweepJobEffects: JobKind<{ olderThanDays: number }>;
  sweepIdempotency: JobKind<Record<string, never>>;
  sweepStaleOperations: JobKind<SweepOperationsPayload>;
  webhookDelivery: JobKind<DeliverPayload>;
  sendTestWebhook: OperationJobKind<{ delivery_id: string }>;
  knowledgeIngest: OperationJobKind<{ source_id: string }>;
  leadImport: OperationJobKind<{ import_id: string }>;
  leadExport: OperationJobKind<{ export_id: string }>;
  sweepLeadExports: JobKind<Record<string, never>>;
  sequenceDispatch: JobKind<Record<string, never>>;
  sequenceMailbox: JobKind<MailboxPayload>;
  agentRun: JobKind<RunPayload>;
  agentRunSweep: JobKind<Record<string, never>>;
  adLaunch: JobKind<AdLaunchPayload>;
  adSync: JobKind<Record<string, never>>;
  webinarMail: JobKind<Record<string, never>>;
  webinarReminder: JobKind<ReminderPayload>;
  blogPublishDue: JobKind<Record<string, never>>;
}

export function serviceJobKinds(deps: Deps): ServiceJobKinds {
  return {
    sweepJobEffects: sweepJobEffects(deps),
    sweepIdempotency: sweepIdempotency(deps),
    sweepStaleOperations: sweepStaleOperationsJob(deps),
    webhookDelivery: webhookDeliveryJob(deps),
    sendTestWebhook: sendTestWebhookJob(deps),
    knowledgeIngest: knowledgeIngestJob(deps),
    leadImport: leadImportJob(deps),
    leadExport: leadExportJob(deps),
    sweepLeadExports: sweepLeadExportsJob(deps),
    sequenceDispatch: sequenceDispatchJob(deps),
    sequenceMailbox: sequenceMailboxJob(deps),
    agentRun: agentRunJob(deps),
    agentRunSweep: agentRunSweepJob(deps),
    adLaunch: adLaunchJob(deps),
    adSync: adSyncJob(deps),
    webinarMail: webinarMailJob(deps),
    webinarReminder: webinarReminderJob(deps),
    blogPublishDue: blogPublishDueJob(deps),
  };
}

/** Recurring jobs; re-applied at every start, so a changed cron takes effect on deploy. */
export async function scheduleServiceJobs(queue: JobQueue, kinds: ServiceJobKinds): Promise<void> {
  // Checkpoints outlive pg-boss's own retention (14 days by default) so a late retry still finds them.
  await queue.schedule(kinds.sweepJobEffects, '17 3 * * *', { olderThanDays: 30 });
  await queue.schedule(kinds.sweepIdempotency, '23 * * * *', {});
  await queue.schedule(kinds.sweepLeadExports, '41 * * * *', {});
  await queue.schedule(kinds.sequenceDispatch, '* * * * *', {});
  await queue.schedule(kinds.agentRunSweep, '* * * * *', {});
  await queue.schedule(kinds.adSync, '*/5 * * * *', {});
  await queue.schedule(kinds.webinarMail, '* * * * *', {});
  // Scheduled posts also queue a job for their exact time; this catches any whose job was lost.
  await queue.schedule(kinds.blogPublishDue, '* * * * *', {});
  // Longer than any job kind's expiry, so a job that is merely slow is never mistaken for a dead one.
  await queue.schedule(kinds.sweepStaleOperations, '* * * * *', { idleSeconds: 20 * 60 });
}
