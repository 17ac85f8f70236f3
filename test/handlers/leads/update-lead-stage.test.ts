// update_lead_stage and the stage filters through the real app: a change is one event with who made it
// and why, the same stage again changes nothing, any stage may be set back, another workspace's lead is
// 404; list_leads and export_leads select by stage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let owner: SignupResult;
let now = new Date('2026-11-25T09:00:00Z');
beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', clock: { now: () => now } });
  owner = await t.signup();
});
afterAll(async () => t?.close());

const call = async (method: string, path: string, json?: unknown, token = owner.token) => {
  const res = await t.request(path, { method, token, ...(json === undefined ? {} : { json }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

const createLead = async (email: string, token = owner.token) => {
  const created = await call('POST', '/api/v1/leads', { email }, token);
  expect(created.status).toBe(201);
  return created.body as { id: string; stage: string; updated_at: string };
};

const stageEvents = async (token = owner.token) =>
  (await call('GET', '/api/v1/events?type=lead.stage_changed', undefined, token)).body.data;

describe('update_lead_stage', () => {
  it('sets the stage with one lead.stage_changed event naming the person and the note', async () => {
    const lead = await createLead('kim@k.example');
    expect(lead.stage).toBe('new');
    now = new Date(now.getTime() + 60_000);
    const set = await call('POST', `/api/v1/leads/${lead.id}/stage`, {
      stage: 'interested',
      note: ' Asked for pricing ',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      id: lead.id,
      stage: 'interested',
      status: 'active',
      updated_at: now.toISOString(),
    });
    expect((await call('GET', `/api/v1/leads/${lead.id}`)).body.stage).toBe('interested');
    const events = (await stageEvents()).filter((e: any) => e.data.id === lead.id);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'lead.stage_changed',
        actor: { type: 'user', id: owner.userId },
        data: { id: lead.id, from: 'new', to: 'interested', by: 'user', note: 'Asked for pricing' },
      }),
    ]);
  });

  it('answers the lead unchanged, with no event, when it already has the stage', async () => {
    const lead = await createLead('lee@l.example');
    const first = await call('POST', `/api/v1/leads/${lead.id}/stage`, { stage: 'won' });
    now = new Date(now.getTime() + 60_000);
    const again = await call('POST', `/api/v1/leads/${lead.id}/stage`, { stage: 'won', note: 'again' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await stageEvents()).filter((e: any) => e.data.id === lead.id)).toHaveLength(1);
  });

  it('sets any stage, back to new as well, as people correct themselves', async () => {
    const lead = await createLead('max@m.example');
    await call('POST', `/api/v1/leads/${lead.id}/stage`, { stage: 'lost' });
    now = new Date(now.getTime() + 60_000);
    const back = await call('POST', `/api/v1/leads/${lead.id}/stage`, { stage: 'new', note: null });
    expect(back.body.stage).toBe('new');
    const events = (await stageEvents()).filter((e: any) => e.data.id === lead.id);
    expect(events.map((e: any) => [e.data.from, e.data.to])).toEqual([
      ['new', 'lost'],
      ['lost', 'new'],
    ]);
  });

  it('refuses a stage outside the enum with 400 and an unknown field with 400', async () => {
    const lead = await createLead('ned@n.example');
    const bad = await call('POST', `/api/v1/leads/${lead.id}/stage`, { stage: 'hot' });
    expect(bad.status).toBe(400);
    expect((await call('POST', `/api/v1/leads/${lead.id}/stage`, { stage: 'won', status: 'active' })).status).toBe(400);
    expect((await call('GET', `/api/v1/leads/${lead.id}`)).body.stage).toBe('new');
  });

  it('returns 404 when the lead belongs to another workspace, and changes nothing there', async () => {
    const other = await t.signup();
    const theirs = await createLead('oli@o.example', other.token);
    const res = await call('POST', `/api/v1/leads/${theirs.id}/stage`, { stage: 'won' });
    expect(res.status).toBe(404);
    expect((await call('GET', `/api/v1/leads/${theirs.id}`, undefined, other.token)).body.stage).toBe('new');
    expect(await stageEvents(other.token)).toEqual([]);
    expect((await call('POST', '/api/v1/leads/lead_00000000000000000000000000/stage', { stage: 'won' })).status).toBe(
      404,
    );
  });
});

describe('stage filters', () => {
  let ws: SignupResult;
  let ids: Record<string, string>;
  beforeAll(async () => {
    ws = await t.signup();
    ids = {};
    for (const [email, stage] of [
      ['pia@p.example', 'won'],
      ['quin@q.example', 'lost'],
      ['ray@r.example', 'interested'],
      ['sue@s.example', null],
    ] as const) {
      ids[email] = (await createLead(email, ws.token)).id;
      if (stage) await call('POST', `/api/v1/leads/${ids[email]}/stage`, { stage }, ws.token);
    }
  });

  it('lists only the leads in the given stages, status filters alongside', async () => {
    const page = await call('GET', '/api/v1/leads?stage=won,lost', undefined, ws.token);
    expect(page.status).toBe(200);
    expect(page.body.data.map((l: any) => l.email).sort()).toEqual(['pia@p.example', 'quin@q.example']);
    const withNew = await call('GET', '/api/v1/leads?stage=new,interested&status=active', undefined, ws.token);
    expect(withNew.body.data.map((l: any) => l.email).sort()).toEqual(['ray@r.example', 'sue@s.example']);
    const paged = await call('GET', '/api/v1/leads?stage=won,lost,interested&limit=2', undefined, ws.token);
    expect(paged.body.data).toHaveLength(2);
    const rest = await call(
      'GET',
      `/api/v1/leads?stage=won,lost,interested&limit=2&cursor=${paged.body.next_cursor}`,
      undefined,
      ws.token,
    );
    expect([...paged.body.data, ...rest.body.data].map((l: any) => l.email).sort()).toEqual([
      'pia@p.example',
      'quin@q.example',
      'ray@r.example',
    ]);
  });

  it('refuses an unknown stage in the list filter with 400 naming the values allowed', async () => {
    const bad = await call('GET', '/api/v1/leads?stage=won,hot', undefined, ws.token);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('meeting_booked');
  });

  it('exports only the leads in the given stages, with each lead’s stage as a column', async () => {
    const started = await call('POST', '/api/v1/leads/exports', { stage: ['won', 'interested'] }, ws.token);
    expect(started.status).toBe(202);
    let op = started.body;
    while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
      op = (await call('GET', `/api/v1/operations/${op.id}?wait_seconds=20`, undefined, ws.token)).body;
    expect(op.status).toBe('succeeded');
    const exp = (await call('GET', `/api/v1/leads/exports/${op.resource.id}`, undefined, ws.token)).body;
    expect(exp).toMatchObject({ row_count: 2, filters: { stage: ['won', 'interested'] } });
    const file = await t.request(exp.download_url, { token: ws.token });
    const lines = (await file.text())
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    const header = lines[0].split(',');
    const at = (name: string) => header.indexOf(name);
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.map((r) => [r[at('email')], r[at('stage')]]).sort()).toEqual([
      ['pia@p.example', 'won'],
      ['ray@r.example', 'interested'],
    ]);
  });
});
