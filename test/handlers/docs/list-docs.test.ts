// list_docs through the real app: the guides as pages with their section anchors, for any authenticated caller.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signup()).token;
});
afterAll(() => t.close());

interface Listing {
  data: Array<{ path: string; title: string; sections: Array<{ anchor: string; heading: string }> }>;
}

describe('list_docs', () => {
  it('lists README.md first, then the guides by file name, with their ## section anchors', async () => {
    const res = await t.request('/api/v1/docs', { token });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as Listing;
    expect(data[0].path).toBe('README.md');
    const guides = data.slice(1).map((p) => p.path);
    expect(guides).toEqual([...guides].sort());
    expect(guides).toContain('docs/replies.md');
    expect(data[0].sections).toContainEqual({ anchor: 'layout', heading: 'Layout' });
  });

  it('refuses a request without a credential', async () => {
    expect((await t.request('/api/v1/docs')).status).toBe(401);
  });
});
