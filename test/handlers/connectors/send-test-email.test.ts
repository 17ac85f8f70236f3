// send_test_email sends through the connector's mailbox; a connector that is not a mailbox (meta_ads)
// is refused with a 409 and left as it was, rather than having its token offered to Gmail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { connectMeta } from '../ads/ad-fixtures.ts';
import type { Connector } from './human.ts';
import { listenOnReservedPort } from './listen.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort());
  owner = await t.signup();
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('send_test_email', () => {
  it('answers 409 for a meta_ads connector, which sends no mail, and leaves it connected', async () => {
    const connector = await connectMeta(t, owner.token);
    expect(connector.status).toBe('connected');
    const res = await t.request(`/api/v1/connectors/${connector.id}/test-email`, {
      method: 'POST',
      token: owner.token,
      json: { to: 'lead@example.com' },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'conflict', detail: expect.stringContaining('cannot send mail') });
    const after = (await (
      await t.request(`/api/v1/connectors/${connector.id}`, { token: owner.token })
    ).json()) as Connector;
    expect(after.status).toBe('connected');
  });
});
