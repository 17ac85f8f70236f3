// From a reply existing at the fake Google to its enrollment stopped, two ways, one fresh thread per sample.
// Minute sync: the reply is delivered, then one tick is run as the schedule runs it (the sweep's list of
// readable mailboxes, then mailbox.sync's syncMailbox for each, in this process) and timed until it ends
// with the enrollment stopped; the wait for the tick itself (uniform over the minute, 30 s on average) and
// pg-boss picking the job up are not in the sample — the report adds the mean wait. Baseline: the plain
// fetch of what that sync had to read (the history page since the previous id, the one message's metadata).
// Pre-send check: the reply is delivered, the lead's follow-up (step 2) is made due, and the sender runs as
// its jobs run it (dispatchDue, then sendFromMailbox), timed until it ends with the enrollment stopped and
// nothing sent. Baseline: one plain threads.get format=metadata of that thread, what the check reads.
import { GMAIL_METADATA_SCOPE, GMAIL_READONLY_SCOPE } from '../../src/handlers/connectors/google/google-endpoints.ts';
import { METADATA_HEADERS } from '../../src/handlers/connectors/google/gmail-read.ts';
import { readableMailboxesAcrossWorkspaces } from '../../src/handlers/replies/mailbox-syncs-data.ts';
import { syncMailbox } from '../../src/handlers/replies/sync-mailbox.ts';
import { dispatchDue, sendFromMailbox } from '../../src/handlers/sequences/sender.ts';
import { deliverReply, enrollmentStatus, type Conversation, type RepliesStage } from './replies-setup.ts';
import { plainFetch } from './replies-sync.ts';

export interface LatencySamples {
  /** Milliseconds, warm-up samples left out. */
  ms: number[];
  plainMs: number[];
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** One minute tick: what the sweep queues, run as the sync job runs it. */
async function tick(stage: RepliesStage): Promise<void> {
  const { deps } = stage.services;
  for (const c of await readableMailboxesAcrossWorkspaces(deps.db.sql, [GMAIL_METADATA_SCOPE, GMAIL_READONLY_SCOPE]))
    await syncMailbox(deps, c.workspace_id, c.id);
}

async function expectStopped(stage: RepliesStage, c: Conversation, how: string): Promise<void> {
  const status = await enrollmentStatus(stage, c.enrollmentId);
  if (status !== 'stopped') throw new Error(`${how}: the enrollment of ${c.leadEmail} is ${status}, not stopped`);
}

/** Runs `sample` then `plain` (or the other way round, every other sample); the first `warmup` are dropped. */
async function sampled(
  conversations: Conversation[],
  warmup: number,
  sample: (
    c: Conversation,
  ) => Promise<{ run: () => Promise<unknown>; plain: () => Promise<unknown>; after: () => Promise<void> }>,
): Promise<LatencySamples> {
  const out: LatencySamples = { ms: [], plainMs: [] };
  for (const [i, c] of conversations.entries()) {
    const s = await sample(c);
    let ms = 0;
    let plainMs = 0;
    if (i % 2 === 0) {
      ms = await timed(s.run);
      plainMs = await timed(s.plain);
    } else {
      plainMs = await timed(s.plain);
      ms = await timed(s.run);
    }
    await s.after();
    if (i < warmup) continue;
    out.ms.push(ms);
    out.plainMs.push(plainMs);
  }
  return out;
}

export function minuteSyncLatency(stage: RepliesStage, conversations: Conversation[], warmup: number) {
  return sampled(conversations, warmup, async (c) => {
    const start = stage.google.historyId();
    deliverReply(stage.google, c, 'reply');
    return {
      run: () => tick(stage),
      plain: async () => {
        if ((await plainFetch(stage, start)) !== 1) throw new Error('the plain fetch did not find the one reply');
      },
      after: () => expectStopped(stage, c, 'minute sync'),
    };
  });
}

async function sendAttempt(stage: RepliesStage): Promise<void> {
  const { deps } = stage.services;
  for (const mailbox of await dispatchDue(deps)) await sendFromMailbox(deps, mailbox);
}

async function plainThread(stage: RepliesStage, threadId: string): Promise<void> {
  const url = new URL(
    `${stage.services.deps.connectors.gmail.gmailApiBase}/gmail/v1/users/me/threads/${encodeURIComponent(threadId)}`,
  );
  url.searchParams.set('format', 'metadata');
  for (const h of METADATA_HEADERS) url.searchParams.append('metadataHeaders', h);
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${stage.accessToken}`, accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`threads.get: ${res.status} ${await res.text()}`);
  await res.json();
}

export function preSendLatency(stage: RepliesStage, conversations: Conversation[], warmup: number) {
  return sampled(conversations, warmup, async (c) => {
    deliverReply(stage.google, c, 'reply');
    // Step 2 waits a day; this lead's is due now, and only this lead's.
    await stage.db.sql`
      update sequence_enrollments set next_due_at = ${new Date(Date.now() - 1000)}
      where workspace_id = ${stage.workspaceId} and id = ${c.enrollmentId}`;
    const sends = stage.google.sendCount;
    return {
      run: () => sendAttempt(stage),
      plain: () => plainThread(stage, c.threadId),
      after: async () => {
        await expectStopped(stage, c, 'pre-send check');
        if (stage.google.sendCount !== sends) throw new Error('a follow-up went into an answered thread');
      },
    };
  });
}
