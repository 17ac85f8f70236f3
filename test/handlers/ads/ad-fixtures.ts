// Ads test fixtures: a meta_ads connector connected by playing the human on the consent page (the
// sandbox's, or the fake Graph API's), a campaign body, and `runLaunchJob`, which runs the launch job
// in this process with real checkpoints, as the worker would.
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { playHuman, type Connector } from '../connectors/human.ts';
import { runLaunch } from '../../../src/handlers/ads/launch-job.ts';
import { onceForJob } from '../../../src/jobs/run-once.ts';

export async function json<T = any>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const body = await r.text();
  expect(r.status, body).toBe(status);
  return (body ? JSON.parse(body) : undefined) as T;
}

export async function connectMeta(t: TestApp, token: string, account = 'marketer@sandbox.example'): Promise<Connector> {
  const started = await json<Connector>(
    t.request('/api/v1/connectors/oauth', { method: 'POST', token, json: { provider: 'meta_ads' } }),
    201,
  );
  const page = await playHuman(started.authorization_url as string, { email: account });
  expect(page.status, page.html).toBe(200);
  return json<Connector>(t.request(`/api/v1/connectors/${started.id}`, { token }));
}

export const campaignBody = (connectorId: string, overrides: Record<string, unknown> = {}) => ({
  connector_id: connectorId,
  name: 'Spring launch',
  objective: 'OUTCOME_TRAFFIC',
  daily_budget: { amount_minor: 2500, currency: 'USD' },
  start_at: '2030-03-01T00:00:00.000Z',
  end_at: '2030-03-31T00:00:00.000Z',
  targeting: { countries: ['US', 'CA'], age_min: 25, age_max: 54, interests: ['marketing automation'] },
  creatives: [
    {
      headline: 'Outreach that writes itself',
      primary_text: 'Grounded email sequences from your own site, approved by you.',
      link_url: 'https://example.com/start',
      call_to_action: 'LEARN_MORE',
    },
  ],
  ...overrides,
});

export const confirmOf = (c: { daily_budget: { amount_minor: number; currency: string } }) => ({
  confirm: { daily_budget_minor: c.daily_budget.amount_minor, currency: c.daily_budget.currency },
});

/** Runs the launch job once, as the worker would with job id `jobId` (a retry keeps the id). */
export function runLaunchJob(
  t: TestApp,
  workspaceId: string,
  campaignId: string,
  jobId = `job-${campaignId}`,
): Promise<void> {
  return runLaunch(
    t.deps,
    { workspace_id: workspaceId, campaign_id: campaignId },
    { once: onceForJob(t.deps.db.sql, jobId) },
  );
}
