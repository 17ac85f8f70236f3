import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('create_api_key', () => {
  it('shows the full key once and stores only a hash', async () => {
    const admin = await t.signup();
    const res = await t.request('/api/v1/api-keys', { method: 'POST', token: admin.token, json: { name: 'CI runner' } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    expect(body.key).toMatch(/^svc_[a-z0-9]{8}_[A-Za-z0-9]+$/);
    expect(body.key.startsWith(`svc_${body.prefix}_`)).toBe(true);
    expect(body).toMatchObject({ name: 'CI runner', scopes: ['*'], created_by: admin.userId, last_used_at: null, revoked_at: null });
    const rows = await t.deps.db.sql`select * from api_keys where id = ${body.id}`;
    expect(JSON.stringify(rows)).not.toContain(body.key.slice(13));
    const list = await (await t.request('/api/v1/api-keys', { token: admin.token })).text();
    expect(list).not.toContain(body.key);
    expect(list).toContain(body.prefix);
  });
});

describe('list_api_keys', () => {
  it('lists newest first with every field but the secret, paginated', async () => {
    const admin = await t.signup();
    const made = [];
    for (const name of ['one', 'two', 'three']) made.push(await t.createKey(admin.token, name));
    const first = (await (await t.request('/api/v1/api-keys?limit=2', { token: admin.token })).json()) as any;
    expect(first.data.map((k: any) => k.name)).toEqual(['three', 'two']);
    expect(Object.keys(first.data[0]).sort()).toEqual(['created_at', 'created_by', 'effective_role', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'revoked_reason', 'role', 'scopes']);
    const second = (await (await t.request(`/api/v1/api-keys?limit=2&cursor=${first.next_cursor}`, { token: admin.token })).json()) as any;
    expect(second.data.map((k: any) => k.name)).toEqual(['one']);
    expect(second.has_more).toBe(false);
  });

  it('records last use without a write per request', async () => {
    // A second instance on the same database, so closing it (which flushes) leaves the shared one running.
    const instance = await createTestApp({ db: t.db });
    let keyId = '';
    try {
      const admin = await instance.signup();
      const key = await instance.createKey(admin.token);
      keyId = key.id;
      expect((await instance.request('/api/v1/users/me', { token: key.key })).status).toBe(200);
      const [before] = await t.deps.db.sql`select last_used_at from api_keys where id = ${key.id}`;
      expect(before.last_used_at).toBeNull();
    } finally {
      await instance.close();
    }
    const [after] = await t.deps.db.sql`select last_used_at from api_keys where id = ${keyId}`;
    expect(after.last_used_at).toBeInstanceOf(Date);
  });
});

describe('revoke_api_key', () => {
  it('rejects the key on the very next request and keeps the row, marked revoked', async () => {
    const admin = await t.signup();
    const key = await t.createKey(admin.token);
    expect((await t.request('/api/v1/users/me', { token: key.key })).status).toBe(200);
    const res = await t.request(`/api/v1/api-keys/${key.id}`, { method: 'DELETE', token: admin.token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.revoked_at).not.toBeNull();
    const next = await t.request('/api/v1/users/me', { token: key.key });
    expect(next.status).toBe(401);
    expect(next.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    const list = (await (await t.request('/api/v1/api-keys', { token: admin.token })).json()) as any;
    expect(list.data.find((k: any) => k.id === key.id).revoked_at).toBe(body.revoked_at);
  });

  it('treats a second revoke as a no-op that keeps the first time', async () => {
    const admin = await t.signup();
    const key = await t.createKey(admin.token);
    const first = (await (await t.request(`/api/v1/api-keys/${key.id}`, { method: 'DELETE', token: admin.token })).json()) as any;
    const second = await t.request(`/api/v1/api-keys/${key.id}`, { method: 'DELETE', token: admin.token });
    expect(second.status).toBe(200);
    expect(((await second.json()) as any).revoked_at).toBe(first.revoked_at);
  });

  it('answers 404 for a key of another workspace, exactly as for a missing id', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const bKey = await t.createKey(b.token);
    const foreign = await t.request(`/api/v1/api-keys/${bKey.id}`, { method: 'DELETE', token: a.token });
    const missing = await t.request('/api/v1/api-keys/key_00000000000000000000000000', { method: 'DELETE', token: a.token });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const strip = (x: any) => ({ ...x, request_id: undefined, instance: undefined });
    expect(strip(await foreign.json())).toEqual(strip(await missing.json()));
    expect((await t.request('/api/v1/users/me', { token: bKey.key })).status).toBe(200);
  });
});

describe('workspace scoping of keys', () => {
  it('lets a key see only the workspace it was minted in', async () => {
    const a = await t.signup();
    const b = await t.signup();
    await t.createKey(b.token, 'b only');
    const aKey = await t.createKey(a.token, 'a only');
    const list = (await (await t.request('/api/v1/api-keys', { token: aKey.key })).json()) as any;
    expect(list.data.map((k: any) => k.name)).toEqual(['a only']);
    const me = (await (await t.request('/api/v1/users/me', { token: aKey.key })).json()) as any;
    expect(me.workspace.id).toBe(a.workspaceId);
  });

  it('refuses key management to members who are not admins with 403', async () => {
    const admin = await t.signup();
    const inv = (await (await t.request('/api/v1/invitations', { method: 'POST', token: admin.token, json: { email: `m.${Date.now()}@example.com`, role: 'member' } })).json()) as any;
    const joined = (await (await t.request('/api/v1/invitations/accept', { method: 'POST', json: { token: inv.token, name: 'M', password: 'member password' } })).json()) as any;
    const token = joined.login.access_token;
    expect((await t.request('/api/v1/api-keys', { token })).status).toBe(403);
    expect((await t.request('/api/v1/api-keys', { method: 'POST', token, json: { name: 'x' } })).status).toBe(403);
  });
});
