// A workspace whose outreach happened through the real path in sandbox mode, on a fixed clock: the sender
// sent, the sandbox's receiving server refused or bounced, the leads answered (simulate_sandbox_inbound,
// then the mailbox sync) and one lead used the unsubscribe link. Nothing is inserted by hand.
//
//   Intro (mailbox A, 2 steps), step 1 at 2026-11-23T23:30Z (Nov 24 in Tokyo) to ada, bo, cy, di, ghost:
//     ghost is refused at once (.invalid), ada replies, bo auto-replies, cy bounces later;
//     step 2 at 2026-11-26T00:00Z only to di (the others stopped, bo paused), who replies.
//   Webinar (mailbox B, 1 step) at 2026-11-24T10:00Z to eve and fay: eve asks to be removed in words,
//     fay clicks the unsubscribe link.
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { syncMailbox } from '../../../src/handlers/replies/sync-mailbox.ts';
import {
  approvedSequence,
  connectGmail,
  drain,
  json,
  readyWorkspace,
  relogin,
  twoSteps,
  type Workspace,
} from '../sequences/sequence-fixtures.ts';
import { mimeHeader, sandboxRaw } from '../replies/reply-fixtures.ts';
import type { Connector } from '../connectors/human.ts';

export interface Outreach {
  ws: Workspace;
  key: string;
  mailboxB: Connector;
  intro: string;
  webinar: string;
}

export const clock = { at: new Date('2026-11-23T23:30:00Z'), now: () => clock.at };

const person = (email: string) => ({
  email,
  first_name: email.split('@')[0],
  company: 'Co',
  custom_fields: { plan: 'pro' },
});

const anytime = {
  timezone: 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  start_hour: 0,
  end_hour: 24,
};

export async function outreachWorkspace(t: TestApp): Promise<Outreach> {
  const ws = await readyWorkspace(
    t,
    [
      'ada@one.example',
      'bo@two.example',
      'cy@three.example',
      'di@four.example',
      'ghost@nowhere.invalid',
      'eve@five.example',
      'fay@six.example',
    ].map(person),
  );
  const key = (await t.createKey(ws.owner.token, 'analytics')).key;
  const mailboxB = await connectGmail(
    t,
    ws.owner.token,
    `events.${ws.owner.email.split('@')[0]}@sandbox.example`,
    undefined,
    ['read_replies', 'read_reply_text'],
  );
  const lead = (email: string) => ws.leads.find((l) => l.email.startsWith(email))?.id as string;
  const request = (path: string, body: unknown) => json(t.request(path, { method: 'POST', token: key, json: body }));

  const intro = await approvedSequence(t, ws, twoSteps(ws.connector.id));
  await request(`/api/v1/sequences/${intro.id}/launch`, {
    enroll: { lead_ids: ['ada', 'bo', 'cy', 'di', 'ghost'].map(lead) },
  });
  await drain(t);

  clock.at = new Date('2026-11-24T10:00:00Z');
  await relogin(t, ws);
  const webinar = await approvedSequence(t, ws, {
    name: 'Webinar',
    sender_connector_id: mailboxB.id,
    schedule: anytime,
    daily_limit: 100,
    steps: [{ subject: 'Join us, {{first_name}}', body: 'A webinar on Thursday.' }],
  });
  await request(`/api/v1/sequences/${webinar.id}/launch`, { enroll: { lead_ids: ['eve', 'fay'].map(lead) } });
  await drain(t);

  clock.at = new Date('2026-11-24T12:00:00Z');
  const sent = await json(t.request(`/api/v1/sent-messages?status=sent&limit=100`, { token: key }));
  const to = (email: string) => sent.data.find((m: any) => m.to.startsWith(email)).id as string;
  const answer = (email: string, kind: string, text?: string) =>
    json(
      t.request('/api/v1/sandbox/inbound', { method: 'POST', token: key, json: { message_id: to(email), kind, text } }),
      201,
    );
  await answer('ada', 'reply', 'Tell me more.');
  await answer('bo', 'auto_reply');
  await answer('cy', 'bounce');
  await answer('eve', 'reply', 'Please remove me from your list.');
  expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');
  expect(await syncMailbox(t.deps, ws.owner.workspaceId, mailboxB.id)).toBe('synced');
  await unsubscribeByLink(t, ws.owner.workspaceId, 'fay@six.example');

  clock.at = new Date('2026-11-26T00:00:00Z');
  await drain(t);
  clock.at = new Date('2026-11-26T01:00:00Z');
  const second = await json(
    t.request(`/api/v1/sent-messages?sequence_id=${intro.id}&status=sent&limit=100`, { token: key }),
  );
  const stepTwo = second.data.filter((m: any) => m.step === 2);
  expect(stepTwo.map((m: any) => m.to)).toEqual(['di@four.example']);
  await json(
    t.request('/api/v1/sandbox/inbound', {
      method: 'POST',
      token: key,
      json: { message_id: stepTwo[0].id, kind: 'reply', text: 'Yes, Friday works.' },
    }),
    201,
  );
  expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');
  return { ws, key, mailboxB, intro: intro.id, webinar: webinar.id };
}

/** The recipient's mail client posts the message's List-Unsubscribe link (RFC 8058 one-click). */
async function unsubscribeByLink(t: TestApp, workspaceId: string, email: string): Promise<void> {
  const raw = (await sandboxRaw(t, workspaceId)).find((r) => mimeHeader(r, 'to')?.includes(email)) as string;
  const link = /^<([^>]+)>$/.exec(mimeHeader(raw, 'list-unsubscribe') ?? '')?.[1] as string;
  const res = await t.request(new URL(link).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(res.status).toBe(200);
}
