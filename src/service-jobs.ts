// The job kinds this service runs, and their recurring schedules: the list the service and a separate
// worker process both register (createServices, the only importer). Each kind is a constant its own
// module defines; callers import that constant to enqueue it. Queue names (`kind.name`) are stored
// with every queued job and schedule, so they stay as they were when a constant is renamed.
import type { Deps } from './deps.ts';
import { launchAdCampaignJob } from './handlers/ads/launch-job.ts';
import { syncAdCampaignsJob } from './handlers/ads/sync.ts';
import { recheckAgentRunsJob } from './handlers/agents/resume.ts';
import { runAgentJob } from './handlers/agents/run-job.ts';
import { publishDueBlogPostsJob } from './handlers/blogs/publish.ts';
import { ingestUrlIntoKnowledgeJob } from './handlers/knowledge/ingest-job.ts';
import { bulkImportLeadsJob } from './handlers/leads/bulk-import.ts';
import { exportLeadsJob, sweepLeadExportsJob } from './handlers/leads/export.ts';
import { sweepStaleOperationsJob } from './handlers/operations/sweep-stale.ts';
import { sweepMailboxSyncsJob, syncMailboxJob } from './handlers/replies/mailbox-sync-jobs.ts';
import { sweepStaleReplySendsJob } from './handlers/replies/reply-sweep.ts';
import { dispatchSequenceMessagesJob, sendFromMailboxJob } from './handlers/sequences/sender.ts';
import { deliverWebhookJob } from './handlers/webhooks/deliver.ts';
import { sendTestWebhookJob } from './handlers/webhooks/send-test-webhook-job.ts';
import { sendWebinarMailJob, sendWebinarReminderJob } from './handlers/webinars/send-mail.ts';
import { sweepIdempotencyKeysJob } from './http/sweep-idempotency-keys.ts';
import type { JobKind } from './jobs/job-kind.ts';
import type { JobQueue } from './jobs/jobs.ts';
import { sweepJobEffectsJob } from './jobs/sweep-job-effects.ts';

export const serviceJobs: JobKind<unknown, Deps>[] = [
  sweepJobEffectsJob,
  sweepIdempotencyKeysJob,
  sweepStaleOperationsJob,
  deliverWebhookJob,
  sendTestWebhookJob,
  ingestUrlIntoKnowledgeJob,
  bulkImportLeadsJob,
  exportLeadsJob,
  sweepLeadExportsJob,
  dispatchSequenceMessagesJob,
  sendFromMailboxJob,
  runAgentJob,
  recheckAgentRunsJob,
  launchAdCampaignJob,
  syncAdCampaignsJob,
  sendWebinarMailJob,
  sendWebinarReminderJob,
  publishDueBlogPostsJob,
  syncMailboxJob,
  sweepMailboxSyncsJob,
  sweepStaleReplySendsJob,
];

/** Recurring jobs; re-applied at every start, so a changed cron takes effect on deploy. */
export async function scheduleServiceJobs(queue: JobQueue): Promise<void> {
  // Checkpoints outlive pg-boss's own retention (14 days by default) so a late retry still finds them.
  await queue.schedule(sweepJobEffectsJob, '17 3 * * *', { olderThanDays: 30 });
  await queue.schedule(sweepIdempotencyKeysJob, '23 * * * *', {});
  await queue.schedule(sweepLeadExportsJob, '41 * * * *', {});
  await queue.schedule(dispatchSequenceMessagesJob, '* * * * *', {});
  await queue.schedule(recheckAgentRunsJob, '* * * * *', {});
  // Replies, auto-replies and late bounces of every mailbox that may read them (issue 28).
  await queue.schedule(sweepMailboxSyncsJob, '* * * * *', {});
  await queue.schedule(syncAdCampaignsJob, '*/5 * * * *', {});
  await queue.schedule(sendWebinarMailJob, '* * * * *', {});
  // Scheduled posts also queue a job for their exact time; this catches any whose job was lost.
  await queue.schedule(publishDueBlogPostsJob, '* * * * *', {});
  await queue.schedule(sweepStaleReplySendsJob, '* * * * *', {});
  // Longer than any job kind's expiry, so a job that is merely slow is never mistaken for a dead one.
  await queue.schedule(sweepStaleOperationsJob, '* * * * *', { idleSeconds: 20 * 60 });
}
