// The generated glue end to end, driven by a contract that declares CSV and JSON request bodies, a CSV
// download, HTML pages and a redirect: a real app mounted from the generated code with the app's own glue,
// the generated SDK against it, and an MCP tool call through the same pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/codegen.ts';
import { createGlueApp } from '../mcp/fixtures/glue-app.ts';
import { generateGlue } from '../mcp/fixtures/glue-contract.ts';

let dir: string;
let glue: Awaited<ReturnType<typeof createGlueApp>>;

beforeAll(async () => {
  dir = tempDir('glue-media');
  glue = await createGlueApp((await generateGlue(dir)).out);
}, 60_000);
afterAll(() => removeDir(dir));

const post = (type: string, body: string) =>
  glue.app.request('/imports', { method: 'POST', headers: { 'content-type': type }, body });

describe('request bodies', () => {
  it('hands a text/csv body to the handler as text', async () => {
    const res = await post('text/csv; charset=utf-8', 'id,email\n1,a@example.test\n2,b@example.test\n');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ media: 'text/csv', rows: 2 });
  });

  it('hands a JSON body on the same operation to the handler as validated JSON', async () => {
    const res = await post('application/json', JSON.stringify({ rows: [{ email: 'a@example.test' }] }));
    expect(await res.json()).toEqual({ media: 'application/json', rows: 1 });
  });

  it('validates the JSON body against its schema', async () => {
    const res = await post('application/json', JSON.stringify({ rows: 'no' }));
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].pointer).toBe('/rows');
  });

  it('validates the CSV text against its schema', async () => {
    const res = await post('text/csv', `id\n${'x'.repeat(10_001)}`);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0]).toMatchObject({ pointer: '', code: 'too_big' });
  });

  it('refuses another media type with 415 listing both accepted ones', async () => {
    const res = await post('application/xml', '<rows/>');
    expect(res.status).toBe(415);
    expect(res.headers.get('accept')).toBe('application/json, text/csv');
    expect(res.headers.get('accept-post')).toBe('application/json, text/csv');
    expect((await res.json()).code).toBe('unsupported_media_type');
  });

  it('refuses a missing required body with 415', async () => {
    const res = await glue.app.request('/imports', { method: 'POST' });
    expect(res.status).toBe(415);
  });
});

describe('responses', () => {
  it('serves an HTML page as text/html with a strict Content-Security-Policy', async () => {
    const res = await glue.app.request('/pages/tok');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('<h1>Unsubscribe</h1>');
  });

  it('serves an error page with the media type its status declares', async () => {
    const res = await glue.app.request('/pages/missing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers a redirect with its Location and no body', async () => {
    const res = await glue.app.request('/callback?code=abc');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://app.example.test/connected');
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it('serves a CSV download as text/csv with the handler headers', async () => {
    const res = await glue.app.request('/exports');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="rows.csv"');
    expect(await res.text()).toBe('id,email\n1,user1@example.test\n');
  });

  it('streams a CSV download a handler returns as an async iterable', async () => {
    const res = await glue.app.request('/exports?stream=true');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const reader = res.body!.getReader();
    const chunks: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(new TextDecoder().decode(r.value));
    expect(chunks).toEqual([
      'id,email\n',
      '1,user1@example.test\n',
      '2,user2@example.test\n',
      '3,user3@example.test\n',
    ]);
  });
});

describe('generated SDK', () => {
  it('returns a CSV download as text', async () => {
    expect(await glue.client.export_rows({ stream: true })).toBe(
      'id,email\n1,user1@example.test\n2,user2@example.test\n3,user3@example.test\n',
    );
  });

  it('returns a declared redirect instead of following it', async () => {
    expect(await glue.client.callback({ code: 'abc' })).toEqual({
      redirect: true,
      status: 302,
      location: 'https://app.example.test/connected',
    });
  });

  it('returns an HTML page as text', async () => {
    expect(await glue.client.callback({})).toBe('<p>The provider sent no code.</p>');
  });

  it('sends a CSV body through the raw client', async () => {
    const init = { body: 'id\n1\n', bodySerializer: (body: string) => body, headers: { 'Content-Type': 'text/csv' } };
    expect((await glue.client.raw.POST('/imports', init)).data).toEqual({ media: 'text/csv', rows: 1 });
  });

  it('sends the JSON arguments of a two-media operation as JSON', async () => {
    expect(await glue.client.import_rows({ rows: [{ a: '1' }, { a: '2' }] })).toEqual({
      media: 'application/json',
      rows: 2,
    });
  });
});

describe('MCP tools', () => {
  it('leaves out the browser-only operations', () => {
    expect(glue.tools.map((t) => t.name).sort()).toEqual(['export_rows', 'import_rows']);
  });

  it('returns a CSV download to the agent as text', async () => {
    const result = await glue.dispatcher.call('export_rows', { stream: true }, undefined);
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: 'text', text: 'id,email\n1,user1@example.test\n2,user2@example.test\n3,user3@example.test\n' },
    ]);
  });

  it('sends a two-media operation as JSON from the tool arguments', async () => {
    const result = await glue.dispatcher.call('import_rows', { rows: [{ a: '1' }] }, undefined);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ media: 'application/json', rows: 1 });
  });
});
