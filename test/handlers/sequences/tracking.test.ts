// Open and click tracking end to end in sandbox mode: a sequence with tracking on sends a message whose HTML
// carries a signed pixel and signed redirects (the unsubscribe link and the text part untouched); the pixel and
// the redirect record the first human open and click on the message, machines are recorded but not counted,
// a replay changes nothing, and a token this service did not sign is a 404 that writes nothing. With tracking
// off, nothing is added to the message and nothing can be recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { signTracking } from '../../../src/handlers/sequences/tracking-token.ts';
import { PIXEL_GIF } from '../../../src/handlers/sequences/track-open.ts';
import { approvedSequence, drain, json, readyWorkspace, twoSteps, type Workspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => now },
    env: { SEQUENCE_SEND_SPACING_MS: '0', TRUST_PROXY: 'true' },
  }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const tracked = {
  ...twoSteps(null),
  steps: [
    {
      subject: 'Hello {{first_name | "there"}}',
      body: 'Hi,\n\nSee [our plans](https://example.com/plans?a=1&b=2) or [the docs](http://docs.example.com/start), or [mail us](mailto:hi@example.com).',
    },
  ],
};

interface Sent {
  id: string;
  html: string;
  text: string;
  seq: any;
}

/** Sends one tracked (or untracked) message to the workspace's one lead; returns it as the sandbox received it. */
async function sendOne(ws: Workspace, tracking: { opens: boolean; clicks: boolean }): Promise<Sent> {
  const seq = await approvedSequence(t, ws, { ...tracked, sender_connector_id: ws.connector.id, tracking });
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token: ws.owner.token,
      json: { enroll: { lead_ids: [ws.leads[0].id] } },
    }),
  );
  await drain(t);
  const sent = await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token }));
  expect(sent.data).toHaveLength(1);
  const inbox = await json(
    t.request(`/api/v1/sandbox/messages?connector_id=${ws.connector.id}`, { token: ws.owner.token }),
  );
  const mail = inbox.data.find((m: any) => m.message_id === sent.data[0].message_id);
  return { id: sent.data[0].id, html: mail.html, text: mail.text, seq };
}

const path = (url: string) => new URL(url).pathname;
const pixelOf = (html: string) => /<img src="([^"]+)"/.exec(html)?.[1] as string;
const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
/** One hit, a second after the last one, so hits are stored in the order made. */
const hit = (url: string, init: { ua?: string; method?: string; from?: string } = {}) => {
  later(1);
  const headers: Record<string, string> = { 'X-Forwarded-For': init.from ?? '203.0.113.7' };
  if (init.ua !== undefined) headers['User-Agent'] = init.ua;
  return t.app.request(path(url), { method: init.method ?? 'GET', headers });
};

async function message(ws: Workspace, id: string): Promise<any> {
  const list = await json(t.request(`/api/v1/sent-messages?lead_id=${ws.leads[0].id}`, { token: ws.owner.token }));
  return list.data.find((m: any) => m.id === id);
}

const hits = (id: string) =>
  t.deps.db.sql<
    Array<{
      kind: string;
      link_index: number | null;
      url: string | null;
      machine: boolean;
      machine_reason: string | null;
    }>
  >`
    select kind, link_index, url, machine, machine_reason from tracking_events where message_id = ${id} order by created_at, id`;
const events = (workspaceId: string, type: string) =>
  t.deps.db.sql<
    Array<{ data: any }>
  >`select data from events where workspace_id = ${workspaceId} and type = ${type} order by created_at, id`;
const writes = async (workspaceId: string) => {
  const [row] = await t.deps.db.sql<[{ tracking: number; events: number }]>`
    select (select count(*)::int from tracking_events where workspace_id = ${workspaceId}) as tracking,
           (select count(*)::int from events where workspace_id = ${workspaceId}) as events`;
  return row;
};

async function workspace(): Promise<Workspace> {
  const ws = await readyWorkspace(t, [
    { email: `ada.${Math.random().toString(36).slice(2)}@example.com`, first_name: 'Ada' },
  ]);
  return ws;
}

describe('open and click tracking', () => {
  let ws: Workspace;
  let sent: Sent;
  beforeAll(async () => {
    ws = await workspace();
    sent = await sendOne(ws, { opens: true, clicks: true });
  });

  it('puts a signed pixel on the public host and rewrites http(s) links, never the unsubscribe link or a mailto', () => {
    expect(pixelOf(sent.html)).toMatch(new RegExp(`^${server.url}/t/o/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    const links = hrefs(sent.html);
    expect(links.filter((h) => h.startsWith(`${server.url}/t/c/`))).toHaveLength(2);
    expect(links).toContain('mailto:hi@example.com');
    expect(links.some((h) => h.startsWith(`${server.url}/unsubscribe/`))).toBe(true);
    expect(sent.html).not.toContain('https://example.com/plans');
  });

  it('keeps the original URLs in the text part', () => {
    expect(sent.text).toContain('https://example.com/plans?a=1&b=2');
    expect(sent.text).toContain('http://docs.example.com/start');
    expect(sent.text).not.toContain('/t/c/');
    expect(sent.text).not.toContain('/t/o/');
  });

  it('answers the pixel with the 43-byte transparent GIF, uncached, and records a human open once', async () => {
    later(60);
    const first = await hit(pixelOf(sent.html), { ua: BROWSER });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/gif');
    expect(first.headers.get('cache-control')).toBe('no-store, private');
    expect(Buffer.from(await first.arrayBuffer()).equals(PIXEL_GIF)).toBe(true);
    expect(PIXEL_GIF.length).toBe(43);
    const opened = (await message(ws, sent.id)).opened_at;
    expect(opened).toBe(now.toISOString());

    later(5);
    expect((await hit(pixelOf(sent.html), { ua: BROWSER })).status).toBe(200);
    expect((await message(ws, sent.id)).opened_at).toBe(opened);
    expect((await hits(sent.id)).map((h) => [h.kind, h.machine])).toEqual([
      ['open', false],
      ['open', false],
    ]);
    const recorded = await events(ws.owner.workspaceId, 'email_message.opened');
    expect(recorded).toHaveLength(1);
    expect(recorded[0].data).toMatchObject({ id: sent.id, machine: false, machine_reason: null });
  });

  it('redirects a tracked link to its original URL without a referrer and records the first human click', async () => {
    const [plans, docs] = hrefs(sent.html).filter((h) => h.includes('/t/c/'));
    const res = await hit(plans, { ua: BROWSER });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/plans?a=1&b=2');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const clicked = (await message(ws, sent.id)).clicked_at;
    expect(clicked).toBe(now.toISOString());

    later(5);
    expect((await hit(docs, { ua: BROWSER })).headers.get('location')).toBe('http://docs.example.com/start');
    expect((await message(ws, sent.id)).clicked_at).toBe(clicked);
    const clicks = (await hits(sent.id)).filter((h) => h.kind === 'click');
    expect(clicks.map((h) => [h.link_index, h.url])).toEqual([
      [0, 'https://example.com/plans?a=1&b=2'],
      [1, 'http://docs.example.com/start'],
    ]);
    expect(await events(ws.owner.workspaceId, 'email_message.clicked')).toHaveLength(1);
  });

  it('answers 404 and writes nothing for a tampered, foreign-kind, unknown or malformed token', async () => {
    const before = await writes(ws.owner.workspaceId);
    const pixel = path(pixelOf(sent.html));
    const [payload, mac] = pixel.slice('/t/o/'.length).split('.');
    const flipped = `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`;
    const click = path(hrefs(sent.html).find((h) => h.includes('/t/c/')) as string);
    const unknown = signTracking(t.deps.auth.apiKeyPepper, {
      kind: 'open',
      workspaceId: ws.owner.workspaceId,
      messageId: 'msg_00000000000000000000000000',
    });
    for (const url of [
      `/t/o/${payload}.${flipped}`,
      `/t/o/${payload}`,
      `/t/o/${click.slice('/t/c/'.length)}`,
      `/t/c/${pixel.slice('/t/o/'.length)}`,
      `/t/o/${unknown}`,
      '/t/c/not-a-token',
      `/t/o/${encodeURIComponent('<script>')}`,
      `/t/c/${'a'.repeat(3000)}.${mac}`,
    ]) {
      const res = await t.app.request(url, { headers: { 'User-Agent': BROWSER } });
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect(await writes(ws.owner.workspaceId)).toEqual(before);
  });
});

describe('concurrent hits', () => {
  it('records every one and counts the first human open once', async () => {
    const ws = await workspace();
    const sent = await sendOne(ws, { opens: true, clicks: false });
    later(60);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => t.app.request(path(pixelOf(sent.html)), { headers: { 'User-Agent': BROWSER } })),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await hits(sent.id)).toHaveLength(4);
    expect((await message(ws, sent.id)).opened_at).toBe(now.toISOString());
    expect(await events(ws.owner.workspaceId, 'email_message.opened')).toHaveLength(1);
  });
});

describe('machine opens and clicks', () => {
  let ws: Workspace;
  let sent: Sent;
  beforeAll(async () => {
    ws = await workspace();
    sent = await sendOne(ws, { opens: true, clicks: true });
  });

  it('records each machine rule without setting opened_at or clicked_at, and one event for the first', async () => {
    const pixel = pixelOf(sent.html);
    const link = hrefs(sent.html).find((h) => h.includes('/t/c/')) as string;
    await hit(pixel, { ua: BROWSER }); // too soon after the send
    await hit(link, { ua: BROWSER });
    later(60);
    await hit(pixel, { ua: BROWSER, method: 'HEAD' });
    await hit(pixel, {});
    await hit(pixel, { ua: BROWSER, from: '17.58.63.1' }); // Apple Mail Privacy Protection
    await hit(pixel, { ua: 'Mozilla/5.0' });
    await hit(pixel, {
      ua: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    });
    for (const ua of ['Barracuda Sentinel (EE)', 'Mozilla/5.0 (compatible; BingPreview/1.0b)', 'python-requests/2.31'])
      await hit(link, { ua });
    expect((await hits(sent.id)).map((h) => [h.kind, h.machine_reason])).toEqual([
      ['open', 'too_soon'],
      ['click', 'too_soon'],
      ['open', 'head_request'],
      ['open', 'no_user_agent'],
      ['open', 'proxy_prefetch'],
      ['open', 'proxy_prefetch'],
      ['open', 'proxy_prefetch'],
      ['click', 'link_scanner'],
      ['click', 'link_scanner'],
      ['click', 'link_scanner'],
    ]);
    const m = await message(ws, sent.id);
    expect([m.opened_at, m.clicked_at]).toEqual([null, null]);
    const opened = await events(ws.owner.workspaceId, 'email_message.opened');
    expect(opened.map((e) => [e.data.machine, e.data.machine_reason])).toEqual([[true, 'too_soon']]);
    expect(await events(ws.owner.workspaceId, 'email_message.clicked')).toHaveLength(1);
  });

  it("counts Google's image proxy from its second fetch of the message", async () => {
    await hit(pixelOf(sent.html), {
      ua: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    });
    expect((await hits(sent.id)).at(-1)).toMatchObject({ kind: 'open', machine: false, machine_reason: null });
    expect((await message(ws, sent.id)).opened_at).toBe(now.toISOString());
    const opened = await events(ws.owner.workspaceId, 'email_message.opened');
    expect(opened.map((e) => e.data.machine)).toEqual([true, false]);
  });
});

describe('tracking off', () => {
  it('adds no pixel and rewrites no link, and a token signed for the message records nothing', async () => {
    const ws = await workspace();
    const sent = await sendOne(ws, { opens: false, clicks: false });
    expect(sent.html).not.toContain('<img');
    expect(sent.html).not.toContain('/t/c/');
    expect(sent.html).toContain('href="https://example.com/plans?a=1&amp;b=2"');
    later(60);
    const before = await writes(ws.owner.workspaceId);
    for (const kind of ['open', 'click'] as const) {
      const token = signTracking(t.deps.auth.apiKeyPepper, {
        ...(kind === 'open' ? { kind } : { kind, link: 0 }),
        workspaceId: ws.owner.workspaceId,
        messageId: sent.id,
      });
      const res = await t.app.request(`/t/${kind[0]}/${token}`, { headers: { 'User-Agent': BROWSER } });
      expect(res.status).toBe(404);
    }
    expect(await writes(ws.owner.workspaceId)).toEqual(before);
    expect(await message(ws, sent.id)).toMatchObject({ opened_at: null, clicked_at: null });
  });
});

describe('the tracking field', () => {
  it('defaults to off, and an edit of it bumps the revision and voids the approval like any edit', async () => {
    const ws = await workspace();
    const token = ws.owner.token;
    const plain = await json(
      t.request('/api/v1/sequences', {
        method: 'POST',
        token,
        json: { name: 'Plain', steps: [{ subject: 'Hi', body: 'Hello' }] },
      }),
      201,
    );
    expect(plain.tracking).toEqual({ opens: false, clicks: false });
    const approved = await approvedSequence(t, ws, { ...tracked, sender_connector_id: ws.connector.id });
    const paused = await json(
      t.request(`/api/v1/sequences/${approved.id}/launch`, {
        method: 'POST',
        token,
        json: { enroll: { lead_ids: [ws.leads[0].id] } },
      }),
    );
    await json(t.request(`/api/v1/sequences/${approved.id}/pause`, { method: 'POST', token }));
    const edited = await json(
      t.request(`/api/v1/sequences/${approved.id}`, {
        method: 'PATCH',
        token,
        headers: { 'If-Match': `"${paused.sequence.revision}"` },
        json: { tracking: { opens: true } },
      }),
    );
    expect(edited).toMatchObject({
      tracking: { opens: true, clicks: false },
      revision: paused.sequence.revision + 1,
      approval: null,
    });
    const got = await json(t.request(`/api/v1/sequences/${approved.id}`, { token }));
    expect(got.tracking).toEqual({ opens: true, clicks: false });
    const listed = await json(t.request('/api/v1/sequences', { token }));
    expect(listed.data.find((s: any) => s.id === approved.id).tracking).toEqual({ opens: true, clicks: false });
  });

  it('is shown by the preview, with the tracked HTML and a tracking_on warning', async () => {
    const ws = await workspace();
    const token = ws.owner.token;
    const seq = await json(
      t.request('/api/v1/sequences', {
        method: 'POST',
        token,
        json: { ...tracked, tracking: { opens: true, clicks: true } },
      }),
      201,
    );
    const preview = await json(t.request(`/api/v1/sequences/${seq.id}/preview`, { method: 'POST', token, json: {} }));
    expect(preview.tracking).toEqual({ opens: true, clicks: true });
    expect(preview.checks).toContainEqual(expect.objectContaining({ code: 'tracking_on', severity: 'warning' }));
    const html = preview.leads[0].messages[0].html as string;
    expect(html).toContain(`<img src="${server.url}/t/o/preview"`);
    expect(html).toContain(`href="${server.url}/t/c/preview-0"`);
    expect(preview.leads[0].messages[0].text).toContain('https://example.com/plans?a=1&b=2');

    const off = await json(t.request('/api/v1/sequences', { method: 'POST', token, json: tracked }), 201);
    const plain = await json(t.request(`/api/v1/sequences/${off.id}/preview`, { method: 'POST', token, json: {} }));
    expect(plain.tracking).toEqual({ opens: false, clicks: false });
    expect(plain.checks.map((c: any) => c.code)).not.toContain('tracking_on');
  });
});

describe('the public tracking routes', () => {
  it('are throttled per client address like every public operation', async () => {
    // A window of 30 days, so the requests never fall on either side of a window's end.
    const limited = await createTestApp({
      env: { RATE_LIMIT_PER_ADDRESS: '2', RATE_LIMIT_WINDOW_SECONDS: String(30 * 86_400), TRUST_PROXY: 'true' },
    });
    try {
      const from = { 'User-Agent': BROWSER, 'X-Forwarded-For': '198.51.100.9' };
      const statuses = [];
      for (const url of ['/t/o/not.signed', '/t/c/not.signed', '/t/o/not.signed'])
        statuses.push((await limited.app.request(url, { headers: from })).status);
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
