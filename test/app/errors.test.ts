import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
  token = (await t.signup()).token;
});
afterAll(async () => t?.close());

async function problem(res: Response) {
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status: res.status, request_id: res.headers.get('x-request-id') });
  expect(typeof body.type).toBe('string');
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(typeof body.code).toBe('string');
  return body;
}

describe('error responses', () => {
  it('answers validation failures with 400 and errors pointing at the fields', async () => {
    const res = await t.request('/api/v1/users/signup', {
      method: 'POST',
      json: { email: 'not-an-email', password: 'longenough', name: '' },
    });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.code).toBe('validation_failed');
    const pointers = (body.errors as Array<{ pointer?: string }>).map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/email', '/name', '/workspace_name']));
  });

  it('points at query parameters by name', async () => {
    const res = await t.request('/api/v1/api-keys?limit=0', { token });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect((body.errors as Array<{ field?: string }>)[0].field).toBe('query.limit');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.request('/api/v1/users/login', {
      method: 'POST',
      body: '{"email":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    await problem(res);
  });

  it('answers an unknown route with 404', async () => {
    const res = await t.request('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe('not_found');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await t.request('/api/v1/api-keys', { method: 'PUT', token });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD');
    expect((await problem(res)).code).toBe('method_not_allowed');
  });

  it('answers a wrong content type with 415', async () => {
    const res = await t.request('/api/v1/users/login', {
      method: 'POST',
      body: 'email=a',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect((await problem(res)).code).toBe('unsupported_media_type');
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.request('/api/v1/users/login', {
      method: 'POST',
      json: { email: 'a@example.com', password: 'x'.repeat(5000) },
    });
    expect(res.status).toBe(413);
    expect((await problem(res)).code).toBe('payload_too_large');
  });

  it('answers a chunked body over the limit with 413 although no Content-Length is sent', async () => {
    const server = await listen(t.app);
    try {
      const chunks = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
          controller.close();
        },
      });
      const res = await fetch(`${server.url}/api/v1/users/login`, {
        method: 'POST',
        body: chunks,
        headers: { 'Content-Type': 'application/json' },
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      await problem(res);
    } finally {
      await server.close();
    }
  });

  it('echoes a well-formed incoming X-Request-Id and replaces a malformed one', async () => {
    const kept = await t.request('/healthz', { headers: { 'X-Request-Id': 'client-chosen-id-123' } });
    expect(kept.headers.get('x-request-id')).toBe('client-chosen-id-123');
    const replaced = await t.request('/healthz', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });
});

describe('unexpected faults', () => {
  it('answers 500 with a request id and no stack trace', async () => {
    const broken = await createTestApp();
    try {
      const user = await broken.signup();
      await broken.deps.db.sql`alter table workspaces rename to workspaces_gone`;
      const res = await broken.request('/api/v1/users/me', { token: user.token });
      expect(res.status).toBe(500);
      const body = await problem(res);
      expect(body.code).toBe('internal');
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|workspaces_gone|relation/);
    } finally {
      await broken.close();
    }
  });
});

describe('contract and docs', () => {
  it('serves the contract at /openapi.json', async () => {
    const res = await t.request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/v1/users/login');
  });

  it('serves an API reference page at /docs whose script is served locally', async () => {
    const res = await t.request('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('/openapi.json');
    expect(html).toContain('/docs/scalar.js');
    const script = await t.request('/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
  });
});
