// List cursors are tamper-evident: anything but a next_cursor this service issued for the same list and
// workspace is a 400 `invalid_cursor` naming query.cursor, never a database fault and never a leak.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let alice: SignupResult;
let bob: SignupResult;
beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = [await t.signup(), await t.signup()];
  for (const owner of [alice, bob]) for (const name of ['one', 'two', 'three']) await t.createKey(owner.token, name);
});
afterAll(async () => t?.close());

const LISTS = ['/api/v1/api-keys', '/api/v1/members'];
const b64 = (text: string) => Buffer.from(text).toString('base64url');

async function expectInvalidCursor(res: Response): Promise<void> {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as { code: string; errors: Array<{ field?: string }> };
  expect(body.code).toBe('invalid_cursor');
  expect(body.errors.map((e) => e.field)).toEqual(['query.cursor']);
}

async function firstCursor(list: string, token: string): Promise<string> {
  // Members: a fresh workspace has one member, so invite-free paging needs limit=1 on a list of keys only.
  const res = await t.request(`${list}?limit=1`, { token });
  const body = (await res.json()) as { next_cursor: string | null };
  if (!body.next_cursor) throw new Error(`${list} has a single page`);
  return body.next_cursor;
}

describe('list cursors', () => {
  it.each(
    LISTS.flatMap((list) => [
      [list, 'a timestamp out of range', b64('["+275760-09-13T00:00:00.000Z","x"]')],
      [list, 'a NUL in the id', b64('["2024-01-01T00:00:00.000Z","key_\\u0000"]')],
      [list, 'an unsigned position', b64('["2024-01-01T00:00:00.000Z","key_01jzzzzzzzzzzzzzzzzzzzzzzz"]')],
      [list, 'not base64url JSON', 'garbage'],
      [list, 'an empty string', ''],
    ]),
  )('answers %s with %s as invalid_cursor', async (list, _, cursor) => {
    await expectInvalidCursor(await t.request(`${list}?cursor=${encodeURIComponent(cursor)}`, { token: alice.token }));
  });

  it('follows next_cursor through every key once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.request(`/api/v1/api-keys?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        token: alice.token,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: Array<{ id: string }>; next_cursor: string | null };
      seen.push(...body.data.map((k) => k.id));
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
  });

  it('refuses a cursor with any character changed', async () => {
    const cursor = await firstCursor('/api/v1/api-keys', alice.token);
    for (const at of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
      const changed = cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
      await expectInvalidCursor(
        await t.request(`/api/v1/api-keys?cursor=${encodeURIComponent(changed)}`, { token: alice.token }),
      );
    }
  });

  it('refuses a tag spelt with other unused bits, which decodes to the same bytes', async () => {
    const cursor = await firstCursor('/api/v1/api-keys', alice.token);
    const last = cursor[cursor.length - 1];
    // The tag's last base64url character carries 2 data bits and 4 unused ones: flip an unused bit.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(cursor.split('.')[1].slice(0, -1) + sibling, 'base64url')).toEqual(
      Buffer.from(cursor.split('.')[1], 'base64url'),
    );
    await expectInvalidCursor(
      await t.request(`/api/v1/api-keys?cursor=${encodeURIComponent(cursor.slice(0, -1) + sibling)}`, {
        token: alice.token,
      }),
    );
  });

  it('refuses a cursor issued to another workspace', async () => {
    const cursor = await firstCursor('/api/v1/api-keys', bob.token);
    await expectInvalidCursor(
      await t.request(`/api/v1/api-keys?cursor=${encodeURIComponent(cursor)}`, { token: alice.token }),
    );
  });

  it('refuses a cursor issued for another list', async () => {
    const cursor = await firstCursor('/api/v1/api-keys', alice.token);
    await expectInvalidCursor(
      await t.request(`/api/v1/members?cursor=${encodeURIComponent(cursor)}`, { token: alice.token }),
    );
  });
});
