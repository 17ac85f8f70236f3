// A workspace with brand knowledge ingested from the local test site, and helpers to follow an agent run
// to the status a test waits for (through get_agent_run with wait_seconds, as an agent would).
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { json } from '../sequences/sequence-fixtures.ts';

export const agentEnv = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  KNOWLEDGE_CRAWL_DELAY_MS: '0',
  KNOWLEDGE_PAGE_TIMEOUT_MS: '15000',
};

export const brief = {
  goal: 'Sell reusable rocket launches to satellite teams',
  audience: 'small satellite startups that need frequent, affordable launches',
  steps: 3,
};

export interface Run {
  id: string;
  status: string;
  required_action: {
    type: string;
    url: string;
    message: string;
    resource: { type: string; id: string };
    expires_at: string;
  } | null;
  output: { resources: Array<{ type: string; id: string }> } | null;
  steps: Array<{ name: string; status: string }>;
  notes: string[];
  error: { code: string; detail: string } | null;
}

/** Ingests the site (a few pages) and waits for the source to be ready; returns its id. */
export async function ingestSite(t: TestApp, token: string, siteUrl: string): Promise<string> {
  let op = await json(
    t.request('/api/v1/knowledge/sources', { method: 'POST', token, json: { url: `${siteUrl}/`, max_pages: 4 } }),
    202,
  );
  while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
    op = await json(t.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token }));
  expect(op.status, JSON.stringify(op.error)).toBe('succeeded');
  return op.resource.id;
}

export function runAgent(
  t: TestApp,
  token: string,
  input: Record<string, unknown>,
  agent = 'email-sequence-generator',
): Promise<Run> {
  return json<Run>(t.request(`/api/v1/agents/${agent}/runs`, { method: 'POST', token, json: { input } }), 202);
}

/** Follows the run until `until(run)` holds or it ends; fails the test on a timeout of ~60 s. */
export async function follow(
  t: TestApp,
  token: string,
  runId: string,
  until: (run: Run) => boolean = () => false,
): Promise<Run> {
  for (let i = 0; i < 30; i++) {
    const run = await json<Run>(t.request(`/api/v1/agent-runs/${runId}?wait_seconds=2`, { token }));
    if (until(run) || ['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
  }
  throw new Error(`run ${runId} did not get there`);
}

export const waiting = (run: Run) => run.status === 'requires_action';
