// The agent run as a script, with the official MCP client over Streamable HTTP: connect a Gmail mailbox (the
// human allows access), ingest a brand website, import leads, run the email-sequence-generator agent (the
// human approves the sequence), launch it and show the first messages. Each tool call prints one line; where
// a person is needed it prints the link and waits, with get_connector / get_agent_run and wait_seconds.
//
//   SERVICE_API_KEY=svc_… npx tsx examples/agent-run.ts [--site <url> --goal <text> --audience <text> [--cta <text>]]
//                                                       [--csv <file>] [--postal-address <text>]
//
// SERVICE_API_BASE defaults to http://127.0.0.1:3000 (what `npm start` serves). See the README's
// "Try the whole agent run".
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DEMO_BRIEF, DEMO_CSV, DEMO_POSTAL_ADDRESS, startDemoSite, type DemoSite } from './demo-site.ts';

type Json = Record<string, any>;

/** Seconds each get_* call lets the service hold the answer until something changes: the waiting is server-side. */
const WAIT_SECONDS = 30;
const ALL_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

class Stop extends Error {}

const OPTIONS = {
  site: { type: 'string' },
  goal: { type: 'string' },
  audience: { type: 'string' },
  cta: { type: 'string' },
  csv: { type: 'string' },
  'postal-address': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;
type Options = {
  site?: string;
  goal?: string;
  audience?: string;
  cta?: string;
  csv?: string;
  'postal-address'?: string;
  help: boolean;
};
type Brief = { goal: string; audience: string; call_to_action?: string };

const client = new Client({ name: 'agent-run-example', version: '1.0.0' });

/** An error body (problem+json) as one line. */
const problem = (error: Json | null) => (error?.detail ? `${error.code}: ${error.detail}` : JSON.stringify(error));
/** Counts as `created 3, invalid 2`. */
const counts = (c: Json) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`)
    .join(', ');

/** Calls a tool, prints one line (name, what came back, ms) and returns the answer; a tool error stops the run. */
async function call(name: string, args: Json, summary: (answer: Json) => string): Promise<Json> {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: args }).catch((error: Error) => {
    throw new Stop(`${name} failed: ${error.message}`);
  });
  const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  if (result.isError) throw new Stop(`${name} answered an error:\n${text}`);
  // A tool whose operation answers in more than one shape (bulk_import_leads: 200 or 202) has no
  // structuredContent; its answer is the JSON text.
  const answer = (result.structuredContent ?? JSON.parse(text)) as Json;
  console.log(`✓ ${name.padEnd(28)} ${summary(answer)}  (${Math.round(performance.now() - started)} ms)`);
  return answer;
}

/** Prints what the person at the keyboard must do; the URL has a line of its own. */
function askHuman(title: string, url: string, notes: string[]): void {
  const bar = '─'.repeat(72);
  console.log(`\n${bar}\n  YOUR TURN: ${title}\n\n  Open: ${url}\n`);
  for (const note of notes) console.log(`  ${note}`);
  console.log(`  This script waits and goes on by itself once you are done.\n${bar}\n`);
}

async function connectMailbox(): Promise<Json> {
  const existing = await call('list_connectors', {}, (page) => `${page.data.length} connector(s)`);
  // A mailbox that may read replies (read_replies), so that a lead who answers gets no further step.
  const ready = existing.data.find(
    (c: Json) => c.provider === 'gmail' && c.status === 'connected' && c.capabilities.includes('read_replies'),
  );
  if (ready) return ready;
  let connector = await call(
    'start_connector_oauth',
    { provider: 'gmail', capabilities: ['read_replies'] },
    (c) => `${c.id} ${c.status} (${c.mode} mode)`,
  );
  askHuman('allow access to the Gmail account the emails are sent from', connector.authorization_url, [
    connector.mode === 'sandbox'
      ? 'Sandbox mode: the service plays Google. Keep the address shown or type another (the emails come from it), then Allow. No mail leaves the service.'
      : 'Sign in to Google with the mailbox the emails should come from and allow access.',
  ]);
  while (connector.status === 'pending_consent') {
    connector = await call(
      'get_connector',
      { connector_id: connector.id, wait_seconds: WAIT_SECONDS },
      (c) => `${c.status}${c.account_email ? ` ${c.account_email}` : ''}`,
    );
  }
  if (connector.status !== 'connected')
    throw new Stop(`the mailbox is ${connector.status}: ${connector.failure_reason ?? connector.next_action ?? ''}`);
  if (!connector.capabilities.includes('read_replies'))
    throw new Stop(
      'the mailbox was connected without reading replies (gmail.metadata was unticked): replies would not stop the sequence; run again and allow it',
    );
  return connector;
}

/**
 * Sandbox mode plays the lead too: the first lead answers the first email (simulate_sandbox_inbound, the
 * sandbox's test helper), the mailbox is read at once (sync_connector_mailbox) and the reply stops that lead's
 * sequence, so none of its later steps goes to them.
 */
async function hearBack(connectorId: string, sequenceId: string): Promise<string> {
  const sent = await call(
    'list_sent_messages',
    { sequence_id: sequenceId, status: ['sent'], limit: 1 },
    (p) => `${p.data.length ? p.data[0].to : 'none'}`,
  );
  const first = sent.data[0];
  if (!first) throw new Stop('no message was sent to answer');
  await call(
    'simulate_sandbox_inbound',
    { message_id: first.id, kind: 'reply', text: 'Thanks, but we are all set for now. Please do not follow up.' },
    (m) => `${m.from} answered in the sandbox mailbox`,
  );
  await call(
    'sync_connector_mailbox',
    { connector_id: connectorId, wait_seconds: WAIT_SECONDS },
    (s) => `${s.status}, last synced ${s.last_synced_at ?? 'never'}${s.last_error ? ` (${s.last_error})` : ''}`,
  );
  const replies = await call(
    'list_replies',
    { sequence_id: sequenceId, lead_id: first.lead_id, wait_seconds: WAIT_SECONDS },
    (p) => (p.data.length ? `${p.data[0].classification}: ${p.data[0].effect}` : 'none yet'),
  );
  if (!replies.data.length) throw new Stop("the reply was not seen; see the connector's mailbox_sync");
  const conversation = await call(
    'get_conversation',
    { lead_id: first.lead_id },
    (c) => `${c.messages.length} message(s); sequence ${c.enrollments[0]?.status} (${c.enrollments[0]?.stop_reason})`,
  );
  const enrollment = conversation.enrollments.find((e: Json) => e.sequence_id === sequenceId);
  return `${first.to} replied: classified "${replies.data[0].classification}", their sequence is ${enrollment?.status} (${enrollment?.stop_reason}), so no further step goes to them.`;
}

async function followOperation(operation: Json): Promise<Json> {
  while (operation.status === 'queued' || operation.status === 'running') {
    operation = await call(
      'get_operation',
      { operation_id: operation.id, wait_seconds: WAIT_SECONDS },
      (o) => `${o.status} (${o.progress.done}/${o.progress.total ?? '?'})`,
    );
  }
  if (operation.status !== 'succeeded')
    throw new Stop(`operation ${operation.id} ${operation.status}: ${problem(operation.error)}`);
  return operation;
}

async function importLeads(csv: string): Promise<Json> {
  const answer = await call('bulk_import_leads', { csv }, (a) =>
    a.import ? counts(a.import.counts) : `operation ${a.id} ${a.status}`,
  );
  for (const row of answer.results ?? []) {
    for (const e of row.errors ?? [])
      console.log(`    row ${e.row}: ${e.message}${e.value ? ` (${JSON.stringify(e.value)})` : ''}`);
  }
  if (answer.import) return answer.import;
  // More than 1,000 rows are imported in the background: follow the operation to the import it made.
  const done = await followOperation(answer);
  return call('get_lead_import', { import_id: done.resource.id }, (i) => counts(i.counts));
}

async function followRun(run: Json): Promise<Json> {
  const shown = new Set<string>();
  const summary = (r: Json) => `${r.status}${r.required_action ? ` (${r.required_action.type})` : ''}`;
  while (run.status !== 'succeeded') {
    if (run.status === 'failed' || run.status === 'cancelled')
      throw new Stop(`run ${run.id} ${run.status}: ${problem(run.error)}`);
    const action = run.required_action;
    if (run.status === 'requires_action' && !shown.has(action.url)) {
      shown.add(action.url);
      if (action.type === 'sequence_approval') {
        askHuman('review and approve the email sequence', action.url, [
          'Sign in to the admin panel as an owner or admin of this workspace, read every step as your leads',
          'will get it, then press Approve (Reject sends it back with your note, and the run fails).',
        ]);
      } else {
        askHuman('allow access to a Gmail account for the run', action.url, [action.message]);
      }
    }
    run = await call('get_agent_run', { run_id: run.id, wait_seconds: WAIT_SECONDS }, summary);
  }
  return run;
}

/** list_sandbox_messages has no wait_seconds: sending takes a few seconds a message, so read it every 3 s. */
async function showDelivered(connectorId: string, seen: Set<string>, expected: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  let fresh: Json[] = [];
  while (fresh.length < expected) {
    if (Date.now() > deadline)
      throw new Stop(
        `only ${fresh.length} of ${expected} messages arrived in 3 minutes; see Sent messages in the admin panel`,
      );
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const page = await call(
      'list_sandbox_messages',
      { connector_id: connectorId, limit: 50 },
      (p) => `${p.data.filter((m: Json) => !seen.has(m.id)).length} of ${expected} delivered`,
    );
    fresh = page.data.filter((m: Json) => !seen.has(m.id));
  }
  console.log(`\nDelivered to the sandbox mailbox (nothing left the service):`);
  for (const m of fresh.reverse()) {
    console.log(`\n  To: ${m.to}\n  Subject: ${m.subject}\n`);
    console.log((m.text ?? '').trim().replace(/^/gm, '    | '));
  }
}

/**
 * The footer's postal address: the one given with --postal-address, else the workspace's own, left as it is;
 * a workspace without one gets the demo's only in the demo (a real site's emails need a real address).
 */
async function postalAddress(given: string | undefined, demo: boolean): Promise<void> {
  const settings = await call('get_workspace_settings', {}, (s) =>
    s.postal_address ? `postal address "${s.postal_address}"` : 'no postal address',
  );
  if (given === undefined && settings.postal_address) {
    console.log('    (kept: pass --postal-address to change it)');
    return;
  }
  if (given === undefined && !demo)
    throw new Stop(
      "the workspace has no postal address, and every email's footer carries one: pass --postal-address with your business's address",
    );
  await call(
    'update_workspace_settings',
    { postal_address: given ?? DEMO_POSTAL_ADDRESS },
    (s) => `postal address "${s.postal_address}"${given === undefined ? " (the demo's)" : ''}`,
  );
}

/** The run itself; answers the last line to print. */
async function main(site: string, brief: Brief, csv: string, options: Options): Promise<string> {
  await call('get_me', {}, (m) => `workspace "${m.workspace.name}", acting as ${m.role}`);
  await postalAddress(options['postal-address'], !options.site);
  const mailbox = await connectMailbox();

  const ingest = await call(
    'ingest_url_into_knowledge',
    { url: site, max_pages: 5 },
    (o) => `operation ${o.id} ${o.status}`,
  );
  const ingested = await followOperation(ingest);
  const leads = await importLeads(csv);
  // enroll: {import_id} takes the leads an import made, and the import skips addresses the workspace has:
  // with none new, the sequence would have nobody to send to, so stop before asking the human to approve it.
  if (leads.counts.created === 0)
    throw new Stop(
      'the import made no new leads (an earlier run imported these addresses); run again with --csv and other addresses',
    );

  console.log(
    `\n  Brief: ${brief.goal}\n  For:   ${brief.audience}\n  Ask:   ${brief.call_to_action ?? "the agent's default (a 15-minute call)"}\n`,
  );
  const input = {
    ...brief,
    steps: 3,
    sender_connector_id: mailbox.id,
    // Only the knowledge this run ingested, and a sending window open all day every day, so the demo
    // sends now rather than in the default weekday office hours.
    knowledge_source_ids: ingested.resource ? [ingested.resource.id] : undefined,
    schedule: { days: ALL_WEEK, start_hour: 0, end_hour: 24 },
  };
  const started = await call(
    'run_agent',
    { agent_id: 'email-sequence-generator', input },
    (r) => `run ${r.id} ${r.status}`,
  );
  const run = await followRun(started);
  const sequenceId = run.output.resources.find((r: Json) => r.type === 'email_sequence').id as string;

  const before =
    mailbox.mode === 'sandbox'
      ? await call(
          'list_sandbox_messages',
          { connector_id: mailbox.id, limit: 50 },
          (p) => `${p.data.length} earlier message(s)`,
        )
      : { data: [] };
  const launched = await call(
    'launch_email_sequence',
    { sequence_id: sequenceId, enroll: { import_id: leads.id } },
    (l) => `${l.sequence.status}, ${counts(l.enrollment?.counts ?? {})}`,
  );
  const enrolled = Number(launched.enrollment?.counts?.enrolled ?? 0);
  if (enrolled === 0) return 'The sequence is active, but no lead could be enrolled (see the skipped counts above).';
  if (mailbox.mode !== 'sandbox')
    return `The sequence is active: ${enrolled} first emails are going out from ${mailbox.account_email}; follow them with list_sent_messages.`;
  await showDelivered(mailbox.id, new Set(before.data.map((m: Json) => m.id)), enrolled);
  const heard = await hearBack(mailbox.id, sequenceId);
  return `Done: the sequence is active and its first ${enrolled} emails were delivered to the sandbox mailbox.\n${heard}`;
}

function usage(): string {
  return `Usage: SERVICE_API_KEY=svc_… npx tsx examples/agent-run.ts [--site <url> --goal <text> --audience <text> [--cta <text>]]
                                                  [--csv <file>] [--postal-address <text>]
  SERVICE_API_BASE  the service (default http://127.0.0.1:3000)
  --site            the brand website to ingest (default: a demo site this script serves on 127.0.0.1,
                    which the service fetches only when it runs with OUTBOUND_ALLOW_PRIVATE=true)
  --goal            what the sequence is for, in the site's own terms, e.g. "book demos of Acme Rocket"
                    (required with --site; default: the demo site's cargo-bike trial)
  --audience        who the leads are, e.g. "operations managers at logistics firms" (required with --site)
  --cta             what each email asks for (default with --site: the agent's "a 15-minute call next week")
  --csv             leads as CSV with a header row (default: five demo rows, two of them bad)
  --postal-address  the footer address every email carries; sets the workspace's address (default: keep the
                    workspace's; a workspace without one gets a demo address only when no --site is given)`;
}

/** The brief to run with, or why there is none: a site of one's own needs a brief of one's own. */
function briefOf(options: Options): Brief | string {
  if (!options.site)
    return {
      goal: options.goal ?? DEMO_BRIEF.goal,
      audience: options.audience ?? DEMO_BRIEF.audience,
      call_to_action: options.cta ?? DEMO_BRIEF.call_to_action,
    };
  const missing = (['goal', 'audience'] as const).filter((name) => !options[name]?.trim()).map((name) => `--${name}`);
  if (missing.length)
    return `--site needs a brief about that site: pass ${missing.join(' and ')} (and --cta, else the emails ask for a 15-minute call). The built-in brief is about the demo site's cargo bikes.`;
  return {
    goal: options.goal as string,
    audience: options.audience as string,
    ...(options.cta && { call_to_action: options.cta }),
  };
}

async function start(): Promise<number> {
  let options: Options;
  try {
    options = parseArgs({ options: OPTIONS }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage()}`);
    return 2;
  }
  if (options.help) {
    console.error(usage());
    return 0;
  }
  const brief = briefOf(options);
  const key = process.env.SERVICE_API_KEY;
  if (typeof brief === 'string' || !key) {
    console.error(
      `${typeof brief === 'string' ? brief : 'SERVICE_API_KEY is not set: mint a key in the admin panel (Settings → API keys).'}\n\n${usage()}`,
    );
    return 2;
  }
  const base = (process.env.SERVICE_API_BASE ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
  let demo: DemoSite | undefined;
  try {
    const csv = options.csv ? await readFile(options.csv, 'utf8') : DEMO_CSV;
    let site = options.site;
    if (!site) {
      demo = await startDemoSite();
      site = demo.url;
      console.log(
        `Serving the demo brand site at ${site} (the service must run with OUTBOUND_ALLOW_PRIVATE=true to fetch it).`,
      );
    }
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport).catch((error: Error) => {
      throw new Stop(
        `could not connect to ${base}/mcp (is \`npm start\` running, and is the key right?): ${error.message}`,
      );
    });
    console.log(`Connected to ${base}/mcp\n`);
    console.log(`\n${await main(site, brief, csv, options)}`);
    return 0;
  } catch (error) {
    console.error(`\n✗ ${error instanceof Stop ? error.message : ((error as Error).stack ?? String(error))}`);
    return 1;
  } finally {
    await client.close().catch(() => {});
    await demo?.close();
  }
}

process.exitCode = await start();
