import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('list_api_keys', () => {
  it('lists newest first with every field but the secret, paginated', async () => {
    const admin = await t.signup();
    const made = [];
    for (const name of ['one', 'two', 'three']) made.push(await t.createKey(admin.token, name));
    const first = await (await t.request('/api/v1/api-keys?limit=2', { token: admin.token })).json();
    expect(first.data.map((k: any) => k.name)).toEqual(['three', 'two']);
    expect(Object.keys(first.data[0]).sort()).toEqual([
      'created_at',
      'created_by',
      'effective_role',
      'id',
      'last_used_at',
      'name',
      'prefix',
      'revoked_at',
      'revoked_reason',
      'role',
      'scopes',
    ]);
    const second = await (
      await t.request(`/api/v1/api-keys?limit=2&cursor=${first.next_cursor}`, { token: admin.token })
    ).json();
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
