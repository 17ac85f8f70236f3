// What each registrant was sent, in the API: list_webinar_registrants shows every mail (kind, status, sent_at,
// and why one failed or was skipped) and get_webinar counts them, over REST and over MCP, with a send Gmail
// refuses (live mode against the fake Google) and a send retried after a 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startFakeGoogle, type FakeGoogle } from '../connectors/fake-google.ts';
import { json, liveWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { addWebinarRegistrants, scheduleWebinar, sendMail } from './webinar-fixtures.ts';

let t: TestApp;
let google: FakeGoogle;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');
let client: Client | undefined;

beforeAll(async () => {
  let redirect = '';
  google = await startFakeGoogle({ redirectUri: () => redirect });
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now }, env: google.env() }));
  redirect = `${server.url}/oauth/callback`;
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.close();
  await t?.close();
  await google?.close();
});

const byEmail = (page: any) => Object.fromEntries(page.data.map((r: any) => [r.email, r.mail]));

describe('mail statuses of webinar registrants', () => {
  let ws: Workspace;
  let webinar: any;
  beforeAll(async () => {
    ws = await liveWorkspace(t, google, 'status@gmail.example');
    webinar = await scheduleWebinar(t, ws);
    // The first send is refused outright (400: never retried), the second is taken.
    google.refuseNextSends([{ status: 400, message: 'Invalid To header' }]);
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'refused@example.com' }]);
    await sendMail(t);
    now = new Date(now.getTime() + 60_000);
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'ok@example.com' }]);
    await sendMail(t);
  });

  it("lists each registrant's mail over REST: sent with sent_at, failed with the reason, reminders queued", async () => {
    const mail = byEmail(
      await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token })),
    );
    const [refusedConfirmation] = mail['refused@example.com'];
    expect(refusedConfirmation).toMatchObject({
      kind: 'confirmation',
      invitation_sequence: 0,
      status: 'failed',
      sent_at: null,
      attempts: 1,
      reason: 'rejected',
    });
    expect(refusedConfirmation.detail).toBe('Gmail send: the provider answered 400 (Invalid To header)');
    expect(mail['ok@example.com'][0]).toEqual({
      kind: 'confirmation',
      invitation_sequence: 0,
      status: 'sent',
      due_at: now.toISOString(),
      sent_at: now.toISOString(),
      attempts: 1,
      reason: null,
      detail: null,
    });
    for (const person of ['refused@example.com', 'ok@example.com']) {
      expect(mail[person].slice(1).map((m: any) => [m.kind, m.status, m.invitation_sequence, m.due_at])).toEqual([
        ['reminder_24h', 'queued', null, '2026-11-25T15:00:00.000Z'],
        ['reminder_1h', 'queued', null, '2026-11-26T14:00:00.000Z'],
      ]);
    }
    const got = await json(t.request(`/api/v1/webinars/${webinar.id}`, { token: ws.owner.token }));
    expect(got.mail).toEqual({ queued: 4, sending: 0, sent: 1, failed: 1, skipped: 0, uncertain: 0 });
  });

  it('shows a send waiting for its retry as queued with the reason, then sent, and an update superseding an unsent one as skipped', async () => {
    google.refuseNextSends([{ status: 503, message: 'Backend Error' }]);
    now = new Date(now.getTime() + 60_000);
    await json(
      t.request(`/api/v1/webinars/${webinar.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        json: { title: 'Pipeline clinic (moved)' },
      }),
    );
    await sendMail(t);
    let mail = byEmail(await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token })));
    const waiting = [...mail['refused@example.com'], ...mail['ok@example.com']].filter(
      (m: any) => m.kind === 'update' && m.reason === 'provider_unavailable',
    );
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ status: 'queued', attempts: 1, sent_at: null });

    // A second change before the retry: the waiting SEQUENCE 1 update no longer applies.
    now = new Date(now.getTime() + 60_000);
    await json(
      t.request(`/api/v1/webinars/${webinar.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        json: { description: 'Now live.' },
      }),
    );
    await sendMail(t);
    mail = byEmail(await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token })));
    const updates = (email: string) =>
      mail[email].filter((m: any) => m.kind === 'update').map((m: any) => [m.invitation_sequence, m.status, m.reason]);
    const statuses = [updates('refused@example.com'), updates('ok@example.com')].map((u) =>
      u.map(([seq, status]: any[]) => `${seq}:${status}`),
    );
    expect(statuses.flat().filter((s) => s.startsWith('2:'))).toEqual(['2:sent', '2:sent']);
    expect(
      [...updates('refused@example.com'), ...updates('ok@example.com')]
        .filter(([seq]: any[]) => seq === 1)
        .map(([, s, r]: any[]) => [s, r])
        .sort(),
    ).toEqual([
      ['sent', null],
      ['skipped', 'superseded'],
    ]);
  });

  it('shows the same statuses through list_webinar_registrants and get_webinar over MCP', async () => {
    client = new Client(
      { name: 'status-agent', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: 'auto' } },
    );
    const key = (await t.createKey(ws.owner.token, 'status-agent')).key;
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client!.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: any;
        content: { text: string }[];
      };
      expect(r.isError, r.content?.[0]?.text).toBeFalsy();
      return r.structuredContent ?? JSON.parse(r.content[0].text);
    };
    const viaMcp = await call('list_webinar_registrants', { webinar_id: webinar.id });
    const viaRest = await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token }));
    expect(viaMcp.data).toEqual(viaRest.data);
    expect(byEmail(viaMcp)['refused@example.com'][0]).toMatchObject({
      kind: 'confirmation',
      status: 'failed',
      reason: 'rejected',
    });
    const got = await call('get_webinar', { webinar_id: webinar.id });
    expect(got.mail).toEqual({ queued: 4, sending: 0, sent: 4, failed: 1, skipped: 1, uncertain: 0 });
  });
});
