// Store agents and their runs as the API shows them.
import type { AgentRunRow } from './agent-runs-data.ts';
import type { StoreAgent } from './store.ts';

/** Where a run is read: the Location of run_agent's 202 and of the operations that start a run for it. */
export const agentRunPath = (id: string) => `/api/v1/agent-runs/${id}`;

export const agentBody = (a: StoreAgent) => ({
  id: a.id,
  slug: a.definition.slug,
  name: a.definition.name,
  description: a.definition.description,
  category: a.definition.category,
  version: a.definition.version,
  input_schema: a.inputSchema,
  produces: a.definition.produces,
  required_connectors: a.definition.requiredConnectors,
});

export const runBody = (r: AgentRunRow) => ({
  id: r.id,
  agent_id: r.agent_id,
  agent_slug: r.agent_slug,
  agent_version: r.agent_version,
  status: r.status,
  input: r.input,
  required_action: r.status === 'requires_action' ? r.required_action : null,
  output: r.output,
  steps: r.steps,
  notes: r.notes,
  error: r.error,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  finished_at: r.finished_at?.toISOString() ?? null,
});

/** What an event about a run carries: the run without its input (which may hold a brief's wording). */
export const runEventData = (r: AgentRunRow) => {
  const { input: _input, ...rest } = runBody(r);
  return rest;
};
