// get_doc through the real app: a page of list_docs read whole or by section; nothing but a listed page is
// ever read.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signup()).token;
});
afterAll(() => t.close());

const page = (query: string) => t.request(`/api/v1/docs/page?${query}`, { token });

describe('get_doc', () => {
  it('reads a page whole, titled by its first heading', async () => {
    const res = await page('path=docs/replies.md');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { title: string; section: null; text: string };
    expect(body.section).toBeNull();
    expect(body.text.startsWith(`# ${body.title}`)).toBe(true);
  });

  it('reads one section up to the next heading of its level', async () => {
    const body = (await (await page('path=README.md&section=layout')).json()) as { heading: string; text: string };
    expect(body.heading).toBe('Layout');
    expect(body.text).toMatch(/^## Layout\n/);
    expect(body.text).not.toMatch(/\n## /);
  });

  it.each([
    ['an unknown page', 'path=docs/nope.md', 'No docs page'],
    ['a path outside the listed pages', 'path=../package.json', 'No docs page'],
    ['an unknown section', 'path=README.md&section=nope', 'no section #nope'],
  ])('answers 404 for %s', async (_name, query, detail) => {
    const res = await page(query);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toContain(detail);
  });
});
