// A client that caps tools, as Cursor does: it keeps only the first 40 tools tools/list gives it and will not
// call any other. Two agents on top of it: one that calls the tools it kept by name, and one in discovery
// mode that finds each tool with search_tools from what it wants to do, reads it with describe_tool before
// the first use, and runs it through call_tool.
import { expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { call, type AgentSession, type ToolResult } from './agent-run-scenario.ts';

export const TOOL_CAP = 40;

/** What the seed's agent run asks for at each step, in the agent's words: the query it gives search_tools. */
export const RUN_INTENTS: Record<string, string> = {
  signup: 'sign up for an account',
  get_me: 'which workspace and role does this key act with',
  update_workspace_settings: 'set the postal address for the email footer',
  start_connector_oauth: 'connect gmail',
  get_connector: 'check whether the gmail connection is ready',
  ingest_url_into_knowledge: 'learn about the company from its website',
  get_operation: 'wait for a background operation to finish',
  bulk_import_leads: 'import leads from a CSV file',
  run_agent: 'run the email sequence generator agent',
  get_agent_run: 'check the status of the agent run',
  launch_email_sequence: 'launch the sequence to the imported leads',
  list_sandbox_messages: 'see the emails sent in sandbox mode',
  list_leads: 'find a lead by email',
};

export interface CappedClient extends AgentSession {
  /** How many tools the server listed. */
  listed: number;
  /** The names the client kept: the first TOOL_CAP listed. */
  kept: string[];
}

/** Lists every page of tools/list, keeps the first TOOL_CAP, and throws on a call to any other tool. */
export async function capTools(client: Client): Promise<CappedClient> {
  const tools: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor);
  const kept = tools.slice(0, TOOL_CAP);
  return {
    listed: tools.length,
    kept,
    async callTool(name, args) {
      if (!kept.includes(name)) {
        throw new Error(
          `the capped client has no tool ${name}: it kept the first ${TOOL_CAP} of ${tools.length} tools (${kept.join(', ')})`,
        );
      }
      return (await client.callTool({ name, arguments: args })) as ToolResult;
    },
    close: () => client.close(),
  };
}

/** The agent calls the tools it kept by name; `called` records which it used. */
export function byName(capped: CappedClient, called: Set<string>): AgentSession {
  return {
    callTool(name, args) {
      called.add(name);
      return capped.callTool(name, args);
    },
    close: () => capped.close(),
  };
}

/**
 * The agent knows what it wants to do, not the tool: before the first use of each tool it searches with the
 * step's intent and expects the tool among the results, then reads its schema; every call goes through
 * call_tool. A step with no intent in RUN_INTENTS fails, so the table is exactly what the run needs.
 */
export function byDiscovery(capped: CappedClient, called: Set<string>): AgentSession {
  const found = new Set<string>();
  return {
    async callTool(name, args = {}) {
      called.add(name);
      if (!found.has(name)) {
        const query = RUN_INTENTS[name];
        if (!query) throw new Error(`the run asked for ${name}, which has no intent in RUN_INTENTS`);
        const hits = await call(capped, 'search_tools', { query });
        expect(
          hits.tools.map((t: { name: string }) => t.name),
          `search_tools "${query}"`,
        ).toContain(name);
        const described = await call(capped, 'describe_tool', { name });
        expect(described.name).toBe(name);
        expect(Object.keys(described.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(Object.keys(args)));
        found.add(name);
      }
      return capped.callTool('call_tool', { name, arguments: args });
    },
    close: () => capped.close(),
  };
}
