// Proves the text check covers every operation of the contract, not just the ones with tests of their own: each
// operation gets U+0000 in a JSON (or form) body key and value, in each query parameter and in each path
// parameter, and must answer 400 naming the place with `invalid_character` — never a 500. Path parameters are
// otherwise valid (built from their patterns) so the body and query are what is judged.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type OperationMeta } from '../../src/generated/routes.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signup()).token;
});
afterAll(async () => t?.close());

interface Parameter {
  name: string;
  in: string;
  schema?: { pattern?: string; $ref?: string };
  $ref?: string;
}

interface Contract {
  paths: Record<string, Record<string, unknown>>;
  components: { parameters: Record<string, Parameter>; schemas: Record<string, { pattern?: string }> };
}
const doc = yaml.load(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as Contract;

function parameters(op: OperationMeta): Parameter[] {
  const item = doc.paths[op.path] as Record<string, unknown> & { parameters?: Parameter[] };
  const own = (item[op.method.toLowerCase()] as { parameters?: Parameter[] }).parameters ?? [];
  return [...(item.parameters ?? []), ...own].map((p) => (p.$ref ? doc.components.parameters[last(p.$ref)] : p));
}

const last = (ref: string) => ref.split('/').pop()!;

/** A value the parameter's pattern accepts: optional parts left out, each character class its first character at its least repetition (at least once). */
function sample(p: Parameter): string {
  const schema = p.schema?.$ref ? doc.components.schemas[last(p.schema.$ref)] : p.schema;
  return (schema?.pattern ?? 'x')
    .replace(/^\^|\$$/g, '')
    .replace(/\([^)]*\)[*?]/g, '')
    .replace(/[^\]\[]\?/g, '')
    .replace(/\[(.)[^\]]*\](?:\{(\d+)(?:,\d+)?\}|[+*])?/g, (_, first: string, n?: string) =>
      first.repeat(Math.max(1, Number(n ?? 1))),
    );
}

/** The header parameters the operation requires (e.g. If-Match), with values their patterns accept. */
function requiredHeaders(op: OperationMeta): Record<string, string> {
  const required = parameters(op).filter((p) => p.in === 'header' && (p as { required?: boolean }).required);
  return Object.fromEntries(required.map((p) => [p.name, sample(p)]));
}

function pathWith(op: OperationMeta, value: (p: Parameter) => string): string {
  const byName = new Map(
    parameters(op)
      .filter((p) => p.in === 'path')
      .map((p) => [p.name, p]),
  );
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => value(byName.get(name) ?? { name, in: 'path' }));
}

interface Answer {
  status: number;
  errors: Array<{ pointer?: string; field?: string; code: string }>;
}

async function send(op: OperationMeta, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await t.request(path, {
    method: op.method,
    token,
    ...init,
    headers: { ...requiredHeaders(op), ...(init.headers as Record<string, string>) },
  });
  const text = await res.text();
  const errors =
    res.headers.get('content-type')?.includes('json') && text
      ? ((JSON.parse(text) as { errors?: Answer['errors'] }).errors ?? [])
      : [];
  return { status: res.status, errors };
}

function expectRefused(op: OperationMeta, answer: Answer, where: (e: Answer['errors'][number]) => boolean): void {
  const named = answer.errors.some((e) => e.code === 'invalid_character' && where(e));
  expect({ operation: op.operationId, status: answer.status, named, errors: answer.errors }).toMatchObject({
    operation: op.operationId,
    status: 400,
    named: true,
  });
}

const validPath = (op: OperationMeta) => pathWith(op, (p) => encodeURIComponent(sample(p)));
const withJson = operations.filter((op) => op.body?.media.some((m) => m.kind === 'json'));
const withForm = operations.filter((op) => op.body?.media.some((m) => m.kind === 'form'));
const withPath = operations.filter((op) => op.path.includes('{'));
const withQuery = operations.filter((op) => op.method === 'GET');

describe('the text check on every operation', () => {
  it('covers operations of every kind', () => {
    expect(withJson.length).toBeGreaterThan(30);
    expect(withForm.length).toBeGreaterThan(0);
    expect(withPath.length).toBeGreaterThan(40);
  });

  it.each(withJson.map((op) => [op.operationId, op] as const))(
    'refuses NUL in a JSON body key and value of %s',
    async (_, op) => {
      const body = JSON.stringify({ 'n\u0000': 'v\u0000', nested: { deep: ['\ud800'] } });
      const answer = await send(op, validPath(op), {
        body,
        headers: { 'content-type': op.body!.media.find((m) => m.kind === 'json')!.type },
      });
      expectRefused(op, answer, (e) => e.pointer === '/nested/deep/0');
      expect(answer.errors.some((e) => e.code === 'invalid_character' && e.pointer?.startsWith('/n'))).toBe(true);
    },
  );

  it.each(withForm.map((op) => [op.operationId, op] as const))('refuses NUL in a form body of %s', async (_, op) => {
    const answer = await send(op, validPath(op), {
      body: 'email=a%00b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectRefused(op, answer, (e) => e.pointer === '/email');
  });

  it.each(withPath.map((op) => [op.operationId, op] as const))(
    'refuses NUL in the path parameters of %s',
    async (_, op) => {
      const body = op.body ? { body: '{}', headers: { 'content-type': op.body.media[0].type } } : {};
      const answer = await send(
        op,
        pathWith(op, (p) => `${encodeURIComponent(sample(p))}%00`),
        body,
      );
      expectRefused(op, answer, (e) => e.field?.startsWith('path.') ?? false);
    },
  );

  it.each(
    withQuery.flatMap((op) =>
      parameters(op)
        .filter((p) => p.in === 'query')
        .map((p) => [`${op.operationId} ?${p.name}`, op, p.name] as const),
    ),
  )('refuses NUL in the query parameter %s', async (_, op, name) => {
    const answer = await send(op, `${validPath(op)}?${encodeURIComponent(name)}=a%00b`);
    expectRefused(op, answer, (e) => e.field === `query.${name}`);
  });
});
