// Inbound messages synced and classified per second: `messages` answers (the first in each thread an
// out-of-office auto-reply, the rest human replies) are delivered into `threads` of our threads at the
// fake Google, then the sync runs as the mailbox.sync job runs it (syncMailbox, in this process) until
// every one is recorded in inbound_messages, each classified and acted on (a pause, then a stop). The
// sync is given the provider's own reader wrapped in a stopwatch, to tell reading from recording in the notes.
// Baseline on the same fake and the same messages: plain fetch of the history.list pages from the same
// history id and one messages.get format=metadata (the same headers asked) per message, one request at a
// time, as the sync makes them. Rounds alternate which side goes first; each round has fresh threads.
import { METADATA_HEADERS } from '../../src/handlers/connectors/google/gmail-read.ts';
import type { MailboxReader } from '../../src/handlers/connectors/providers/mailbox.ts';
import { providerFor } from '../../src/handlers/connectors/providers/providers.ts';
import { syncMailbox } from '../../src/handlers/replies/sync-mailbox.ts';
import { deliverReply, type Conversation, type RepliesStage } from './replies-setup.ts';
import { median } from './stats.ts';

export interface SyncRound {
  syncMs: number;
  plainMs: number;
  /** Of syncMs, the time inside the mailbox reader's calls (token, HTTP, parsing). */
  readMs: number;
}

export interface SyncResult {
  messages: number;
  threads: number;
  rounds: SyncRound[];
  /** Sync runs it took per round (a run reads every history page; more than one would mean it stopped early). */
  runs: number[];
}

const MAX_RUNS = 10;

async function getJson(url: URL, token: string): Promise<any> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${url.pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The baseline: every message added since `startHistoryId`, listed and fetched by its metadata; how many. */
export async function plainFetch(stage: RepliesStage, startHistoryId: string): Promise<number> {
  const base = `${stage.services.deps.connectors.gmail.gmailApiBase}/gmail/v1/users/me`;
  let pageToken: string | undefined;
  let fetched = 0;
  do {
    const url = new URL(`${base}/history`);
    url.searchParams.set('startHistoryId', startHistoryId);
    url.searchParams.set('historyTypes', 'messageAdded');
    url.searchParams.set('maxResults', '100');
    if (pageToken) url.searchParams.set('pageToken', pageToken);
    const page = await getJson(url, stage.accessToken);
    const ids = new Set<string>();
    for (const record of page.history ?? []) for (const added of record.messagesAdded ?? []) ids.add(added.message.id);
    for (const id of ids) {
      const get = new URL(`${base}/messages/${encodeURIComponent(id)}`);
      get.searchParams.set('format', 'metadata');
      for (const h of METADATA_HEADERS) get.searchParams.append('metadataHeaders', h);
      await getJson(get, stage.accessToken);
      fetched += 1;
    }
    pageToken = page.nextPageToken;
  } while (pageToken);
  return fetched;
}

async function recordedCount(stage: RepliesStage): Promise<number> {
  const [{ n }] = await stage.db.sql<{ n: number }[]>`
    select count(*)::int as n from inbound_messages
    where workspace_id = ${stage.workspaceId} and connector_id = ${stage.connector.id}`;
  return n;
}

/** The provider's own reader (what the job uses), with the time spent in its calls added up. */
function timedReader(): { reader: MailboxReader; spent: () => number } {
  const inner = providerFor('gmail')?.mailbox?.read;
  if (!inner) throw new Error('Gmail has no mailbox reader');
  let ms = 0;
  const time =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      try {
        return await f(...args);
      } finally {
        ms += performance.now() - started;
      }
    };
  const reader: MailboxReader = {
    profile: time(inner.profile),
    history: time(inner.history),
    recent: time(inner.recent),
    metadata: time(inner.metadata),
    full: time(inner.full),
    thread: time(inner.thread),
  };
  return { reader, spent: () => ms };
}

/** Runs the sync until `target` messages are recorded; how many runs it took. */
async function syncUntil(stage: RepliesStage, target: number, reader: MailboxReader): Promise<number> {
  for (let run = 1; run <= MAX_RUNS; run++) {
    const result = await syncMailbox(stage.services.deps, stage.workspaceId, stage.connector.id, { reader });
    if (result !== 'synced') throw new Error(`the sync ended ${result}`);
    if ((await recordedCount(stage)) >= target) return run;
  }
  throw new Error(`${MAX_RUNS} sync runs did not record every message`);
}

async function oneRound(stage: RepliesStage, threads: Conversation[], messages: number, syncFirst: boolean) {
  const start = stage.google.historyId();
  for (let i = 0; i < messages; i++)
    deliverReply(stage.google, threads[i % threads.length], i < threads.length ? 'auto_reply' : 'reply', i);
  const target = (await recordedCount(stage)) + messages;
  let syncMs = 0;
  let plainMs = 0;
  let runs = 0;
  const timer = timedReader();
  const sync = async () => {
    const started = performance.now();
    runs = await syncUntil(stage, target, timer.reader);
    syncMs = performance.now() - started;
  };
  const plain = async () => {
    const started = performance.now();
    const fetched = await plainFetch(stage, start);
    plainMs = performance.now() - started;
    if (fetched !== messages) throw new Error(`the plain fetch read ${fetched} of ${messages} messages`);
  };
  for (const side of syncFirst ? [sync, plain] : [plain, sync]) await side();
  return { syncMs, plainMs, runs, readMs: timer.spent() };
}

/** Checks that every delivered message was recorded as ours and classified as delivered. */
async function checkClassified(stage: RepliesStage, threads: number, messages: number, rounds: number) {
  const rows = await stage.db.sql<{ classification: string; n: number }[]>`
    select classification, count(*)::int as n from inbound_messages
    where workspace_id = ${stage.workspaceId} and connector_id = ${stage.connector.id} and lead_id is not null
    group by classification`;
  const by = Object.fromEntries(rows.map((r) => [r.classification, r.n]));
  const want = { auto_reply: threads * rounds, reply: (messages - threads) * rounds };
  if (by.auto_reply !== want.auto_reply || by.reply !== want.reply)
    throw new Error(`recorded ${JSON.stringify(by)}, expected ${JSON.stringify(want)}`);
}

export async function measureSync(
  stage: RepliesStage,
  conversations: Conversation[],
  options: { messages: number; threads: number; rounds: number },
): Promise<SyncResult> {
  const { messages, threads, rounds } = options;
  if (conversations.length < threads * rounds) throw new Error('not enough threads for the sync rounds');
  const result: SyncResult = { messages, threads, rounds: [], runs: [] };
  for (let r = 0; r < rounds; r++) {
    const round = await oneRound(stage, conversations.slice(r * threads, (r + 1) * threads), messages, r % 2 === 0);
    result.rounds.push({ syncMs: round.syncMs, plainMs: round.plainMs, readMs: round.readMs });
    result.runs.push(round.runs);
  }
  await checkClassified(stage, threads, messages, rounds);
  return result;
}

export const medianMs = (rounds: SyncRound[], side: keyof SyncRound) => median(rounds.map((r) => r[side]));
