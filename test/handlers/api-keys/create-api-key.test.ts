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
    const res = await t.request('/api/v1/api-keys', {
      method: 'POST',
      token: admin.token,
      json: { name: 'CI runner' },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.key).toMatch(/^svc_[a-z0-9]{8}_[A-Za-z0-9]+$/);
    expect(body.key.startsWith(`svc_${body.prefix}_`)).toBe(true);
    expect(body).toMatchObject({
      name: 'CI runner',
      scopes: ['*'],
      created_by: admin.userId,
      last_used_at: null,
      revoked_at: null,
    });
    const rows = await t.deps.db.sql`select * from api_keys where id = ${body.id}`;
    expect(JSON.stringify(rows)).not.toContain(body.key.slice(13));
    const list = await (await t.request('/api/v1/api-keys', { token: admin.token })).text();
    expect(list).not.toContain(body.key);
    expect(list).toContain(body.prefix);
  });
});
