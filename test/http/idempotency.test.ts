// Idempotency-Key on a real side-effecting operation, minting an API key: a retry gets the first
// response and mints nothing more; a different request or one still running is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let owner: { token: string; workspaceId: string };
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(() => t.close());

let counter = 0;
const freshKey = () => `idem-${process.pid}-${Date.now()}-${++counter}`;

function mint(key: string | undefined, body: unknown, token = owner.token): Promise<Response> {
  const headers: Record<string, string> = key === undefined ? {} : { 'Idempotency-Key': key };
  return t.request('/api/v1/api-keys', { method: 'POST', token, json: body, headers });
}

async function keysNamed(workspaceId: string, name: string): Promise<number> {
  const [row] = await t.db.sql<
    { n: number }[]
  >`select count(*)::int as n from api_keys where workspace_id = ${workspaceId} and name = ${name}`;
  return row.n;
}

describe('create_api_key with an Idempotency-Key', () => {
  it('replays the first response to a retry, with the same secret, and mints one key', async () => {
    const key = freshKey();
    const first = await mint(key, { name: 'retried mint' });
    const second = await mint(key, { name: 'retried mint' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    const [a, b] = [
      (await first.json()) as { id: string; key: string },
      (await second.json()) as { id: string; key: string },
    ];
    expect(b).toEqual(a);
    expect(b.key).toMatch(/^svc_/);
    expect(await keysNamed(owner.workspaceId, 'retried mint')).toBe(1);
  });

  it('lets the replayed key authenticate, since it is the key that was minted', async () => {
    const key = freshKey();
    await mint(key, { name: 'usable replay' });
    const replayed = (await (await mint(key, { name: 'usable replay' })).json()) as { key: string };
    const me = await t.request('/api/v1/users/me', { token: replayed.key });
    expect(me.status).toBe(200);
  });

  it('treats JSON with its fields in another order as the same request', async () => {
    const key = freshKey();
    const first = await t.request('/api/v1/api-keys', {
      method: 'POST',
      token: owner.token,
      headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
      body: '{"name":"reordered"}',
    });
    const second = await t.request('/api/v1/api-keys', {
      method: 'POST',
      token: owner.token,
      headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
      body: ' { "name" : "reordered" } ',
    });
    expect(first.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused', async () => {
    const key = freshKey();
    expect((await mint(key, { name: 'first body' })).status).toBe(201);
    const res = await mint(key, { name: 'second body' });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { code: string }).code).toBe('idempotency_key_reused');
    expect(await keysNamed(owner.workspaceId, 'second body')).toBe(0);
  });

  it('refuses the same key on another operation with 422', async () => {
    const key = freshKey();
    expect((await mint(key, { name: 'key for one operation' })).status).toBe(201);
    const res = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: owner.token,
      json: { email: 'other-op@example.com', role: 'member' },
      headers: { 'Idempotency-Key': key },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe('idempotency_key_reused');
  });

  it('mints a new key for every request without an Idempotency-Key', async () => {
    await mint(undefined, { name: 'no key' });
    await mint(undefined, { name: 'no key' });
    expect(await keysNamed(owner.workspaceId, 'no key')).toBe(2);
  });

  it('refuses a malformed key with 400 naming the header, and mints nothing', async () => {
    const res = await mint(`${'x'.repeat(256)}`, { name: 'long key' });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { field?: string }[] };
    expect(problem.errors.map((e) => e.field)).toContain('header.idempotency-key');
    expect(await keysNamed(owner.workspaceId, 'long key')).toBe(0);
  });

  it('keeps the same key in two workspaces apart', async () => {
    const other = await t.signup();
    const key = freshKey();
    const mine = (await (await mint(key, { name: 'same key elsewhere' })).json()) as { id: string };
    const res = await mint(key, { name: 'same key elsewhere' }, other.token);
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(((await res.json()) as { id: string }).id).not.toBe(mine.id);
    expect(await keysNamed(other.workspaceId, 'same key elsewhere')).toBe(1);
  });

  it('shares a key between the JWT and the API keys of one workspace', async () => {
    const apiKey = await t.createKey(owner.token, 'second credential');
    const key = freshKey();
    const first = (await (await mint(key, { name: 'one workspace' })).json()) as { id: string };
    const again = await mint(key, { name: 'one workspace' }, apiKey.key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(first.id);
  });
});

describe('Idempotency-Key while the first request runs', () => {
  it('answers two simultaneous requests with one mint: 201 and a 409 or the replay', async () => {
    const key = freshKey();
    const answers = await Promise.all([mint(key, { name: 'raced mint' }), mint(key, { name: 'raced mint' })]);
    const bodies = await Promise.all(
      answers.map(async (r) => ({ status: r.status, body: (await r.json()) as { id?: string; code?: string } })),
    );
    expect(await keysNamed(owner.workspaceId, 'raced mint')).toBe(1);
    const created = bodies.filter((b) => b.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((b) => b.body.id)).size).toBe(1);
    for (const other of bodies.filter((b) => b.status !== 201))
      expect(other).toMatchObject({ status: 409, body: { code: 'idempotency_in_progress' } });
  });

  it('answers 409 idempotency_in_progress while the claim is held', async () => {
    const key = freshKey();
    await mint(key, { name: 'held claim' });
    // As another instance would see it mid-request: claimed, no response yet, lock not passed.
    await t.db
      .sql`update idempotency_keys set state = 'in_progress', locked_until = ${new Date(Date.now() + 3_600_000)} where key = ${key}`;
    const res = await mint(key, { name: 'held claim' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { code: string }).code).toBe('idempotency_in_progress');
    expect(await keysNamed(owner.workspaceId, 'held claim')).toBe(1);
  });

  it('lets a retry of the same request take over a claim whose lock passed (its process died)', async () => {
    const key = freshKey();
    await mint(key, { name: 'taken over' });
    // As a process that died mid-request leaves it: claimed, no response, lock passed.
    await t.db.sql`
      update idempotency_keys set state = 'in_progress', claim = 'dead', response_status = null, response_headers = null,
        response_body = null, locked_until = ${new Date(Date.now() - 1000)}
      where key = ${key}`;
    const retry = await mint(key, { name: 'taken over' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const again = await mint(key, { name: 'taken over' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(((await retry.json()) as { id: string }).id);
  });

  it('refuses a different request on a dead claim as a reuse of the key', async () => {
    const key = freshKey();
    await t.db.sql`
      insert into idempotency_keys (scope, key, request_hash, state, claim, created_at, expires_at, locked_until)
      values (${owner.workspaceId}, ${key}, 'another request', 'in_progress', 'dead', ${new Date()},
              ${new Date(Date.now() + 86_400_000)}, ${new Date(Date.now() - 1000)})`;
    expect((await mint(key, { name: 'not taken over' })).status).toBe(422);
    expect(await keysNamed(owner.workspaceId, 'not taken over')).toBe(0);
  });
});

describe('stored responses', () => {
  it('keeps the minted secret sealed in the database', async () => {
    const key = freshKey();
    const minted = (await (await mint(key, { name: 'sealed' })).json()) as { key: string; id: string };
    const [row] = await t.db.sql<
      { body: Uint8Array }[]
    >`select response_body as body from idempotency_keys where scope = ${owner.workspaceId} and key = ${key}`;
    const stored = Buffer.from(row.body);
    expect(stored.includes(Buffer.from(minted.key))).toBe(false);
    expect(stored.includes(Buffer.from(minted.key.split('_')[2]))).toBe(false);
    expect(stored.includes(Buffer.from(minted.id))).toBe(false);
  });

  it('refuses to replay a sealed body moved to another record', async () => {
    const [a, b] = [freshKey(), freshKey()];
    await mint(a, { name: 'moved body' });
    await mint(b, { name: 'moved body' });
    await t.db
      .sql`update idempotency_keys set response_body = (select response_body from idempotency_keys where key = ${a}) where key = ${b}`;
    expect((await mint(b, { name: 'moved body' })).status).toBe(500);
  });
});
