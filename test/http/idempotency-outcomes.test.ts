// Which outcomes an Idempotency-Key keeps, and for how long: failures a retry should run again (5xx, 429,
// refused input) free the key; other 4xx are replayed; a key lapses after 24 h with or without the sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepIdempotencyKeys } from '../../src/http/idempotency-data.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const DAY_MS = 86_400_000;
let now = new Date('2026-11-21T10:00:00.000Z');
let t: TestApp;
// An API key, not a JWT: the clock moves a day forward, past any token's lifetime.
let credential: string;
beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  credential = (await t.createKey((await t.signup()).token, 'outcomes')).key;
});
afterAll(() => t.close());

let counter = 0;
const freshKey = () => `outcome-${process.pid}-${++counter}`;

function mint(key: string, name: string): Promise<Response> {
  return t.request('/api/v1/api-keys', {
    method: 'POST',
    token: credential,
    json: { name },
    headers: { 'Idempotency-Key': key },
  });
}

async function records(key: string): Promise<number> {
  const [row] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from idempotency_keys where key = ${key}`;
  return row.n;
}

/** Makes inserting a key named `name` fail in the database with the given SQLSTATE, for the duration of `run`. */
async function withFailingInsert(name: string, sqlstate: string, run: () => Promise<void>): Promise<void> {
  const fn = `fail_${sqlstate.toLowerCase()}_${counter}`;
  await t.db.sql.unsafe(`
    create function ${fn}() returns trigger language plpgsql as $$
    begin
      if new.name = '${name}' then raise exception 'injected fault' using errcode = '${sqlstate}'; end if;
      return new;
    end $$`);
  await t.db.sql.unsafe(`create trigger ${fn} before insert on api_keys for each row execute function ${fn}()`);
  try {
    await run();
  } finally {
    await t.db.sql.unsafe(`drop trigger ${fn} on api_keys`);
    await t.db.sql.unsafe(`drop function ${fn}()`);
  }
}

describe('outcomes an Idempotency-Key does not keep', () => {
  it.each([
    ['a 500', 'P0001', 500],
    ['a 503', '57P03', 503],
  ])('frees the key after %s, so the retry runs', async (_name, sqlstate, status) => {
    const key = freshKey();
    const name = `fails with ${status}`;
    await withFailingInsert(name, sqlstate, async () => {
      expect((await mint(key, name)).status).toBe(status);
    });
    expect(await records(key)).toBe(0);
    const retry = await mint(key, name);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('frees the key after a 400, so the corrected request may use it', async () => {
    const key = freshKey();
    expect(
      (
        await t.request('/api/v1/api-keys', {
          method: 'POST',
          token: credential,
          json: { name: '' },
          headers: { 'Idempotency-Key': key },
        })
      ).status,
    ).toBe(400);
    expect(await records(key)).toBe(0);
    expect((await mint(key, 'corrected')).status).toBe(201);
  });

  it('claims no key for a throttled request (429)', async () => {
    // A window of 30 days: the two requests never fall on either side of a window's end (a 60 s window did, 1.4 s
    // apart, in a loaded CI run).
    const limited = await createTestApp({
      env: { RATE_LIMIT_PER_ADDRESS: '1', RATE_LIMIT_WINDOW_SECONDS: String(30 * 86_400) },
    });
    try {
      const key = freshKey();
      const body = { token: 'no-such-invitation', name: 'Throttled', password: 'correct horse battery' };
      const send = () =>
        limited.request('/api/v1/invitations/accept', {
          method: 'POST',
          json: body,
          headers: { 'Idempotency-Key': key },
        });
      expect((await send()).status).toBe(404);
      const throttled = await send();
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await limited.close();
    }
  });
});

describe('outcomes an Idempotency-Key keeps', () => {
  it('replays a 4xx of a public operation to a retry from the same address', async () => {
    const key = freshKey();
    const body = { token: 'no-such-invitation', name: 'Someone', password: 'correct horse battery' };
    const send = () =>
      t.request('/api/v1/invitations/accept', { method: 'POST', json: body, headers: { 'Idempotency-Key': key } });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(404);
    expect(second.status).toBe(404);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toBe('application/problem+json');
    expect(await second.json()).toEqual(await first.json());
    const [row] = await t.db.sql<{ scope: string }[]>`select scope from idempotency_keys where key = ${key}`;
    expect(row.scope).toMatch(/^addr:/);
  });

  it('replays a signup, so a retried signup does not fail as a duplicate account', async () => {
    const key = freshKey();
    const body = {
      email: `idem-signup-${process.pid}@example.com`,
      password: 'correct horse battery',
      name: 'Idem',
      workspace_name: 'Idem',
    };
    const send = () =>
      t.request('/api/v1/users/signup', { method: 'POST', json: body, headers: { 'Idempotency-Key': key } });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(((await second.json()) as { user: { id: string } }).user.id).toBe(
      ((await first.json()) as { user: { id: string } }).user.id,
    );
  });
});

describe('Idempotency-Key lifetime', () => {
  it('treats a record older than 24 h as absent, without the sweep', async () => {
    const key = freshKey();
    const first = (await (await mint(key, 'lapsing')).json()) as { id: string };
    now = new Date(now.getTime() + DAY_MS - 1000);
    expect((await mint(key, 'lapsing')).headers.get('idempotent-replayed')).toBe('true');
    now = new Date(now.getTime() + 1000);
    const after = await mint(key, 'another request after expiry');
    expect(after.status).toBe(201);
    expect(((await after.json()) as { id: string }).id).not.toBe(first.id);
  });

  it('sweeps expired records and keeps live ones', async () => {
    const [old, young] = [freshKey(), freshKey()];
    await mint(old, 'swept');
    now = new Date(now.getTime() + DAY_MS / 2);
    await mint(young, 'kept');
    now = new Date(now.getTime() + DAY_MS / 2);
    expect(await sweepIdempotencyKeys(t.db.sql, now)).toBeGreaterThanOrEqual(1);
    expect(await records(old)).toBe(0);
    expect(await records(young)).toBe(1);
  });
});
