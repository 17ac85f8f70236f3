// What the server tells an agent about working with it, beyond the tool list: the `instructions` of initialize
// (and of 2026-07-28 discovery), the prompts and the resources. The text names only tools of the manifest;
// test/mcp/guide.test.ts checks every snake_case name in it.
import type { Server, ServerCapabilities } from '@modelcontextprotocol/server';
import { registerPrompts } from './prompts.ts';
import { registerResources, type GuideApi } from './resources.ts';

/**
 * What the arguments many tools share mean, said once here instead of in each tool's schema (codegen drops their
 * descriptions: scripts/codegen/compact-schema.ts EXPLAINED_ONCE).
 */
export const SHARED_ARGUMENTS = `Shared arguments: idempotency_key is a UUID you choose; a retry with the same key within \
24 h replays the first answer instead of acting twice. limit is the page size; cursor is the previous page's \
next_cursor.`;

/** Under 300 tokens (characters / 4): clients put it in every conversation's context. */
export const GUIDE_INSTRUCTIONS = `Run outreach in this order:
1. A credential: the API key you were given, or signup when the human has no account.
2. start_connector_oauth connects a mailbox: show the human the link, they consent; then get_connector.
3. ingest_url_into_knowledge with the brand's website.
4. bulk_import_leads.
5. run_agent with agent_id "email-sequence-generator" writes the sequence; follow it with get_agent_run.
6. A person approves the sequence at its approval link.
7. launch_email_sequence.
Wait with wait_seconds (get_operation, get_connector, get_agent_run, get_email_sequence) instead of polling.
People approve; agents never do: show the human the link. On a 409, read its code and detail and do what it \
says before retrying. Ask search_docs when unsure; prompts run_outreach and weekly_report give full plans.
${SHARED_ARGUMENTS}`;

export type { GuideApi } from './resources.ts';

/** The capabilities registerGuide serves, for the Server's constructor. */
export function guideCapabilities(withResources: boolean): ServerCapabilities {
  return { prompts: { listChanged: false }, ...(withResources && { resources: { listChanged: false } }) };
}

/**
 * Prompts always; resources when the unit can reach the API (`read` sends GET <path> with the unit's own
 * credential and context, as its tool calls are sent).
 */
export function registerGuide(server: Server, read: ((path: string) => Promise<Response>) | undefined): void {
  registerPrompts(server);
  if (read) registerResources(server, read);
}

/** Binds a unit's credential and context to the mounting transport's `api`. */
export function unitReader(api: GuideApi, authorization: () => string | undefined, context: unknown) {
  return (path: string) => api(path, authorization(), context);
}
