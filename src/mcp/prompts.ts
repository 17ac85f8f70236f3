// The server's prompts: the agent run of the README (run_outreach) and a read-only weekly report
// (weekly_report), as step-by-step text naming the tools to call. Pure text; no API call is made to list
// or render one.
import {
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type Prompt,
  type Server,
} from '@modelcontextprotocol/server';

type Args = Record<string, string>;

interface PromptSpec extends Prompt {
  render(args: Args): string;
}

const runOutreach: PromptSpec = {
  name: 'run_outreach',
  title: 'Run an outreach campaign',
  description:
    "The agent run: connect a mailbox, learn the brand's site, import leads, write, approve and launch a sequence.",
  arguments: [
    { name: 'website_url', description: "The brand's website, to ground the emails.", required: true },
    { name: 'leads_source', description: 'A CSV URL, or a description or list of the leads.', required: true },
    { name: 'goal', description: 'What the emails should achieve (e.g. book a demo).', required: true },
    { name: 'audience', description: 'Who the leads are (e.g. heads of growth at B2B SaaS).', required: true },
  ],
  render: (a) => `Run this outreach for me with the outreach service's tools, step by step.

Website: ${a.website_url}
Leads: ${a.leads_source}
Goal: ${a.goal}
Audience: ${a.audience}

1. Call get_me to confirm the workspace and your role (with no account, call signup first).
2. Call get_workspace_settings. If postal_address is empty, ask me for it and set it with update_workspace_settings: every email's footer carries it and nothing launches without it.
3. Connect a mailbox: start_connector_oauth with provider "gmail" and capabilities ["read_replies"]. Show me the authorization_url, then call get_connector with wait_seconds 50 until its status is connected.
4. Call ingest_url_into_knowledge with url ${a.website_url} (max_pages up to 50 for a whole site) and follow the operation with get_operation and wait_seconds 50 until it has succeeded. Check what was learned with search_knowledge.
5. Import the leads with bulk_import_leads: csv_url for a CSV URL, rows for leads you were given. Follow a 202 with get_operation; read rejected rows with list_lead_import_errors. Keep the import_id.
6. Call run_agent with agent_id "email-sequence-generator" and input {goal, audience} from above. Follow it with get_agent_run and wait_seconds 50. When it is requires_action, show me required_action.url (a mailbox to connect, or the sequence to approve) and keep waiting: you cannot approve it yourself.
7. When the run has succeeded, its output names the approved email_sequence: call launch_email_sequence with its sequence_id and enroll {import_id}.
8. Report what was sent with get_email_sequence (its stats) and list_sent_messages.

Wait with wait_seconds instead of polling. On a 409, read its code and detail and do what it says before retrying.`,
};

const weeklyReport: PromptSpec = {
  name: 'weekly_report',
  title: 'Weekly outreach report',
  description: "Summarise the workspace's outreach over recent days, reading only.",
  arguments: [{ name: 'days', description: 'How many days back to report on (default 7).', required: false }],
  render: (a) => {
    const days = a.days?.trim() || '7';
    return `Summarise this workspace's outreach over the last ${days} days. Read only: change nothing.

1. list_email_sequences: every sequence and its status.
2. get_email_sequence for each active, paused or recently completed one: its stats (enrolled, sent, bounced, replied, unsubscribed), pause_reason and approval.
3. list_sent_messages for what went out, and failed or uncertain sends.
4. list_replies with since set ${days} days back: replies, auto-replies, bounces and unsubscribe requests; get_conversation for a reply that needs an answer.
5. list_connectors for mailbox health (a connector that is not connected stops sending).
6. list_events with created_after ${days} days back (admins only) for launches, approvals and disconnections.

Then write the report: the headline numbers (sent, replies, reply rate, bounces, unsubscribes); one line per sequence; the replies waiting for an answer; and each problem with its next action (a paused sequence's pause_reason, a mailbox to reconnect, a draft waiting for a person's approval). Follow next_cursor when a list has more.`;
  },
};

export const prompts: PromptSpec[] = [runOutreach, weeklyReport];

export function renderPrompt(name: string, given: Args | undefined): GetPromptResult {
  const spec = prompts.find((p) => p.name === name);
  if (!spec) {
    const known = prompts.map((p) => p.name).join(', ');
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt ${name}; the prompts are ${known}.`);
  }
  const args = given ?? {};
  const missing = (spec.arguments ?? []).filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
  if (missing.length > 0) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${name} needs ${missing.join(', ')}.`);
  }
  return {
    description: spec.description,
    messages: [{ role: 'user', content: { type: 'text', text: spec.render(args) } }],
  };
}

export function registerPrompts(server: Server): void {
  const listed = prompts.map(({ render: _render, ...prompt }) => prompt);
  server.setRequestHandler('prompts/list', () => ({ prompts: listed }));
  server.setRequestHandler('prompts/get', (request) => renderPrompt(request.params.name, request.params.arguments));
}
