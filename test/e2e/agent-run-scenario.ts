// The seed's agent run, scripted as an agent would do it over MCP, with the test playing the human at the two
// pauses: signup → start_connector_oauth (the human consents) → get_connector with wait_seconds →
// ingest_url_into_knowledge → get_operation with wait_seconds → bulk_import_leads (a CSV with bad rows) →
// run_agent email-sequence-generator → requires_action: sequence_approval (the human approves in the admin
// panel, in Chromium) → the run succeeds → launch_email_sequence → the first messages arrive. Every call is
// a tool call; the variants differ in the transport, the protocol era and the mailbox.
import { expect } from 'vitest';

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content?: Array<{ type: string; text?: string }>;
}

/** An agent's connection to the tool server: one credential for its life. */
export interface AgentSession {
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

export interface Delivered {
  to: string;
  subject: string;
  text: string;
  listUnsubscribe: string | null;
  listUnsubscribePost: string | null;
}

export interface ScenarioWorld {
  siteUrl: string;
  /** Connects with `credential`; null: the session signup itself adopted (the stdio launcher). */
  connect(credential: string): Promise<AgentSession>;
  /** After signup: the session that acts in the new workspace (a reconnect over HTTP, the same one over stdio). */
  afterSignup(session: AgentSession, accessToken: string, signupResult: ToolResult): Promise<AgentSession>;
  /** The human allows access at the consent URL. */
  consent(url: string, account: string): Promise<void>;
  /** The human, signed in to the admin panel, approves the sequence at the approval URL. */
  approve(url: string, email: string, password: string): Promise<void>;
  /** The messages the mailbox has delivered so far. */
  delivered(session: AgentSession, account: string): Promise<Delivered[]>;
}

export interface ScenarioReport {
  /** Milliseconds from signup to the first message delivered, without the two human waits. */
  agentMs: number;
  humanMs: number;
  steps: Array<{ name: string; ms: number }>;
}

const csv = [
  'email,first_name,last_name,company',
  'ada@example.com,Ada,Lovelace,Analytical Engines',
  'grace@example.com,Grace,Hopper,Navy',
  'not-an-email,Bad,Row,Nowhere',
  'linus@example.com,Linus,Torvalds,Kernel',
  ',No,Email,Missing',
].join('\n');

export async function call(
  session: AgentSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const result = await session.callTool(name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  // A tool whose operation answers in more than one shape (bulk_import_leads: 200 or 202) has no outputSchema,
  // so its result is the JSON text alone.
  return (result.structuredContent ?? JSON.parse(result.content?.[0]?.text ?? 'null')) as Record<string, any>;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, tries = 20): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (done(value)) return value;
  }
  throw new Error(`gave up waiting for ${what}`);
}

export async function runAgentScenario(world: ScenarioWorld, bootstrapCredential: string): Promise<ScenarioReport> {
  const steps: ScenarioReport['steps'] = [];
  let humanMs = 0;
  let mark = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    steps.push({ name, ms: Math.round(now - mark) });
    mark = now;
  };
  const human = async (act: () => Promise<void>) => {
    const started = performance.now();
    await act();
    humanMs += performance.now() - started;
  };
  const began = performance.now();
  const email = `agent.${process.pid}.${Date.now()}@example.com`;
  const password = 'correct horse battery staple';

  const first = await world.connect(bootstrapCredential);
  const signedUp = await first.callTool('signup', {
    email,
    password,
    name: 'Agent Owner',
    workspace_name: 'Agent Run Inc',
  });
  expect(signedUp.isError, JSON.stringify(signedUp.content)).toBeFalsy();
  const account = signedUp.structuredContent as Record<string, any>;
  const agent = await world.afterSignup(first, account.login.access_token, signedUp);
  const me = await call(agent, 'get_me');
  expect(me.workspace.id).toBe(account.workspace.id);
  await call(agent, 'update_workspace_settings', { postal_address: 'Agent Run Inc, 9 Harbour Rd, Portsmouth' });
  step('signup');

  const started = await call(agent, 'start_connector_oauth', { provider: 'gmail', capabilities: ['read_replies'] });
  expect(started.status).toBe('pending_consent');
  const mailbox = `sales.${process.pid}@gmail.example`;
  step('start_connector_oauth');
  await human(() => world.consent(started.authorization_url, mailbox));
  const connector = await until(
    () => call(agent, 'get_connector', { connector_id: started.id, wait_seconds: 20 }),
    (c) => c.status !== 'pending_consent',
    'the connector',
  );
  expect(connector).toMatchObject({ status: 'connected', account_email: mailbox });
  step('get_connector');

  let operation = await call(agent, 'ingest_url_into_knowledge', { url: `${world.siteUrl}/`, max_pages: 4 });
  operation = await until(
    () => call(agent, 'get_operation', { operation_id: operation.id, wait_seconds: 20 }),
    (o) => ['succeeded', 'failed'].includes(o.status),
    'the ingestion',
  );
  expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
  step('ingest_url_into_knowledge');

  const imported = (await call(agent, 'bulk_import_leads', { csv })).import;
  expect(imported.counts).toMatchObject({ total: 5, created: 3, invalid: 2 });
  step('bulk_import_leads');

  const input = {
    goal: 'Sell reusable rocket launches to satellite teams',
    audience: 'small satellite startups that need frequent, affordable launches',
    steps: 2,
    schedule: { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_hour: 0, end_hour: 24 },
  };
  let run = await call(agent, 'run_agent', { agent_id: 'email-sequence-generator', input });
  run = await until(
    () => call(agent, 'get_agent_run', { run_id: run.id, wait_seconds: 20 }),
    (r) => r.status !== 'queued' && r.status !== 'running',
    'the run to pause',
  );
  expect(run.status, JSON.stringify(run.error)).toBe('requires_action');
  expect(run.required_action.type).toBe('sequence_approval');
  step('run_agent');
  await human(() => world.approve(run.required_action.url, email, password));
  run = await until(
    () => call(agent, 'get_agent_run', { run_id: run.id, wait_seconds: 20 }),
    (r) => ['succeeded', 'failed', 'cancelled'].includes(r.status),
    'the run to finish',
  );
  expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
  const sequenceId = run.output.resources.find((r: { type: string }) => r.type === 'email_sequence').id;
  step('get_agent_run');

  const launched = await call(agent, 'launch_email_sequence', {
    sequence_id: sequenceId,
    enroll: { import_id: imported.id },
  });
  expect(launched.sequence.status).toBe('active');
  expect(launched.enrollment.counts).toMatchObject({ enrolled: 3 });
  const delivered = await until(
    async () => {
      await new Promise((r) => setTimeout(r, 250));
      return world.delivered(agent, mailbox);
    },
    (m) => m.length >= 3,
    'three messages',
    80,
  );
  step('first messages delivered');
  const agentMs = Math.round(performance.now() - began - humanMs);

  const ada = delivered.find((m) => m.to.includes('ada@example.com')) as Delivered;
  expect(ada.text).toContain('Hello Ada,');
  expect(ada.text).toMatch(/Roadrunner|reusable launch vehicles|Launch costs fall/);
  expect(ada.text).toContain('9 Harbour Rd');
  expect(ada.listUnsubscribePost).toBe('List-Unsubscribe=One-Click');
  const link = /<([^>]+)>/.exec(ada.listUnsubscribe ?? '')?.[1] as string;
  const oneClick = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status).toBe(200);
  const leads = await call(agent, 'list_leads', { q: 'ada@example.com' });
  expect(leads.data[0].status).toBe('unsubscribed');
  await agent.close();
  return { agentMs, humanMs: Math.round(humanMs), steps };
}
