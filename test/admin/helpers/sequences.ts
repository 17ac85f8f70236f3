// Sequence data for the admin-panel tests, made through the REST API as an owner would: a workspace with
// Gmail connected in sandbox mode, the postal address set and leads; sequences submitted for approval.
import { expect } from 'vitest';
import { playHuman, type Connector } from '../../connectors/human.ts';
import type { SignupResult, TestApp } from '../../helpers/app.ts';

export interface SendingWorkspace {
  owner: SignupResult;
  connector: Connector;
  leads: Array<{ id: string; email: string }>;
}

/** The body of a 2xx answer, failing the test with the body otherwise. */
export async function ok<T = any>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function sendingWorkspace(t: TestApp, leads: Array<Record<string, unknown>>): Promise<SendingWorkspace> {
  const owner = await t.signup({ name: 'Ada Lovelace', workspace_name: 'Analytical Engines' });
  const token = owner.token;
  const started = await ok<Connector>(t.request('/api/v1/connectors/oauth', { method: 'POST', token, json: { provider: 'gmail' } }), 201);
  expect((await playHuman(started.authorization_url as string, { email: 'sales@sandbox.example' })).status).toBe(200);
  const connector = await ok<Connector>(t.request(`/api/v1/connectors/${started.id}`, { token }));
  expect(connector).toMatchObject({ status: 'connected', mode: 'sandbox' });
  await ok(t.request('/api/v1/workspace/settings', { method: 'PATCH', token, json: { postal_address: '1 Main St, Springfield' } }));
  const created = [];
  for (const lead of leads) created.push(await ok<{ id: string; email: string }>(t.request('/api/v1/leads', { method: 'POST', token, json: lead }), 201));
  return { owner, connector, leads: created };
}

/** A one-step sequence that may send at any hour of any day. */
export function oneStep(connectorId: string, name: string): Record<string, unknown> {
  return {
    name,
    sender_connector_id: connectorId,
    schedule: { timezone: 'UTC', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_hour: 0, end_hour: 24 },
    daily_limit: 500,
    steps: [{ subject: 'Hi {{first_name}}', body: 'Hello {{first_name | "there"}},\n\nWe make **engines** that compute.' }],
  };
}

/** Creates a sequence and submits it; returns it pending approval, with its approval_url. */
export async function pendingSequence(t: TestApp, ws: SendingWorkspace, name: string, body = oneStep(ws.connector.id, name)): Promise<any> {
  const token = ws.owner.token;
  const seq = await ok(t.request('/api/v1/sequences', { method: 'POST', token, json: body }), 201);
  const submitted = await ok(t.request(`/api/v1/sequences/${seq.id}/submit`, { method: 'POST', token }));
  expect(submitted.status).toBe('pending_approval');
  return submitted;
}

export async function getSequence(t: TestApp, token: string, id: string): Promise<any> {
  return ok(t.request(`/api/v1/sequences/${id}`, { token }));
}
