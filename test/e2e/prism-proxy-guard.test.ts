// Proves the proxy check can fail: Prism serves a copy of the contract altered so the real server
// no longer matches it, and every kind of mismatch must reach the record that fails a scenario.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { contractPath, prismErrorType, watchPrism } from '../helpers/prism.ts';
import { apiKeyJourney } from './credentials-scenarios.ts';
import { startProxiedServer, type ProxiedServer } from './stack.ts';
import { prismProxyTarget } from './target.ts';

type Json = Record<string, unknown>;
const at = (value: unknown, ...keys: string[]): Json => keys.reduce((v, key) => (v as Json)[key], value) as Json;

// Each change makes the unchanged server violate the copy in one way.
function alteredContract(): Json {
  const doc = yaml.load(readFileSync(contractPath, 'utf8')) as Json;
  const health = at(doc, 'components', 'schemas', 'Health');
  health.required = [...(health.required as string[]), 'version']; // a body field the server never sends
  at(doc, 'components', 'schemas', 'ApiKey', 'properties', 'prefix').pattern = '^[A-Z]{8}$'; // a value it never sends
  delete at(doc, 'paths', '/api/v1/api-keys/{key_id}', 'delete', 'responses')['404']; // a status no longer declared
  return doc;
}

let dir: string;
let stack: ProxiedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prism-guard-'));
  const spec = join(dir, 'altered-openapi.yaml');
  writeFileSync(spec, yaml.dump(alteredContract(), { noRefs: true, lineWidth: -1 }));
  stack = await startProxiedServer({ spec });
});

afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('prism proxy --errors in front of a server that breaks the contract', () => {
  it('answers 500 with its VIOLATIONS problem when a response body breaks the schema', async () => {
    const watch = watchPrism();
    const response = await watch.fetch(new Request(`${stack.proxy.url}/healthz`));
    expect(response.status).toBe(500);
    const body = (await response.json()) as {
      type: string;
      validation: Array<{ location: string[]; message: string }>;
    };
    expect(body.type).toBe(`${prismErrorType}VIOLATIONS`);
    expect(body.validation).toContainEqual(
      expect.objectContaining({ location: ['response', 'body'], message: expect.stringContaining('version') }),
    );
    expect(response.headers.get('sl-violations')).toContain('version');
    expect(watch.reports).toHaveLength(1);
  });

  it('passes an undeclared error status through, flagged only by a sl-violations warning', async () => {
    const owner = await stack.app.signup();
    const watch = watchPrism();
    const response = await watch.fetch(
      new Request(`${stack.proxy.url}/api/v1/api-keys/key_01jd8x6y5k2r3t4v5w6x7y8z9a`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${owner.token}` },
      }),
    );
    expect(response.status).toBe(404);
    expect((await response.json()) as object).toMatchObject({ code: 'not_found' });
    expect(watch.reports).toEqual([
      expect.objectContaining({
        status: 404,
        violations: [
          expect.objectContaining({
            severity: 'Warning',
            message: expect.stringContaining('Unable to match the returned status code'),
          }),
        ],
      }),
    ]);
  });

  it('fails an end-to-end scenario whose responses break the contract', async () => {
    const target = prismProxyTarget(stack.proxy.url);
    await expect(apiKeyJourney(target)).rejects.toThrow();
    const violations = target.reports.flatMap((r) => r.prismProblem?.validation ?? []);
    expect(
      target.reports.every((r) => r.status === 500 && r.prismProblem?.type === `${prismErrorType}VIOLATIONS`),
    ).toBe(true);
    expect(violations).toContainEqual(
      expect.objectContaining({ location: expect.arrayContaining(['prefix']), code: 'pattern' }),
    );
  });
});
