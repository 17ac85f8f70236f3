// Sequence data for the admin-panel tests, made through the REST API as an owner would: a workspace with
// Gmail connected in sandbox mode, the postal address set and leads; sequences submitted for approval.
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { json, readyWorkspace, type Workspace } from '../../handlers/sequences/sequence-fixtures.ts';

export type SendingWorkspace = Workspace;

/** The body of a 2xx answer, failing the test with the body otherwise. */
export const ok = json;

export async function sendingWorkspace(t: TestApp, leads: Array<Record<string, unknown>>): Promise<SendingWorkspace> {
  const ws = await readyWorkspace(t, leads, {
    signup: { name: 'Ada Lovelace', workspace_name: 'Analytical Engines' },
    account: 'sales@sandbox.example',
    postalAddress: '1 Main St, Springfield',
  });
  expect(ws.connector).toMatchObject({ status: 'connected', mode: 'sandbox' });
  return ws;
}

/** A one-step sequence that may send at any hour of any day. */
export function oneStep(connectorId: string, name: string): Record<string, unknown> {
  return {
    name,
    sender_connector_id: connectorId,
    schedule: { timezone: 'UTC', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_hour: 0, end_hour: 24 },
    daily_limit: 500,
    steps: [
      { subject: 'Hi {{first_name}}', body: 'Hello {{first_name | "there"}},\n\nWe make **engines** that compute.' },
    ],
  };
}

/** Creates a sequence and submits it; returns it pending approval, with its approval_url. */
export async function pendingSequence(
  t: TestApp,
  ws: SendingWorkspace,
  name: string,
  body = oneStep(ws.connector.id, name),
): Promise<any> {
  const token = ws.owner.token;
  const seq = await ok(t.request('/api/v1/sequences', { method: 'POST', token, json: body }), 201);
  const submitted = await ok(t.request(`/api/v1/sequences/${seq.id}/submit`, { method: 'POST', token }));
  expect(submitted.status).toBe('pending_approval');
  return submitted;
}

export async function getSequence(t: TestApp, token: string, id: string): Promise<any> {
  return ok(t.request(`/api/v1/sequences/${id}`, { token }));
}
