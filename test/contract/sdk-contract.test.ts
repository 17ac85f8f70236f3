// The generated SDK against the Prism mock and against the real server, for every operation of the
// generated operation list: each call resolves or throws ApiProblemError with a status the contract
// declares and a body valid against that status's schema. A new operation joins without new code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { operations } from '../../src/generated/routes.ts';
import { ApiProblemError, createClient, operationBindings } from '../../src/generated/sdk.ts';
import type { OperationBinding } from '../../src/generated/sdk-runtime.ts';
import { seedWorkspace } from '../helpers/seed.ts';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';
import { npmMockFlags, startPrismMock, watchPrism, type PrismServer } from '../helpers/prism.ts';
import { Contract } from './contract.ts';
import { checkOutcome, type Outcome } from './outcome.ts';
import { Sampler, type Fixtures } from './sampler.ts';

const contract = Contract.load();

// Destructive operations last, so the state they remove has served the others first.
const cases: OperationBinding[] = operations
  .map((op) => operationBindings[op.operationId])
  .filter((binding): binding is OperationBinding => binding !== undefined)
  .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

interface Target {
  baseUrl: string;
  credential: string;
  fixtures: Fixtures;
  /** The mock has no state: a valid request must get its success response. */
  expectSuccess: boolean;
  /** Prism reports request and response violations in `sl-violations`; none may appear. */
  watchPrism: boolean;
}

// Contract faults found by this test and reported to the lead; each entry is expected to fail until fixed.
// `<target>:<operationId>` → why that case is expected to fail; empty while the contract is sound.
const knownFaults: Record<string, string> = {};

const targets = new Map<string, Target>();
const covered = new Map<string, Set<string>>();
let mock: PrismServer | undefined;
let real: { app: TestApp; close(): Promise<void> } | undefined;

beforeAll(async () => {
  const [prism, app] = await Promise.all([
    startPrismMock({ flags: npmMockFlags() }),
    createTestApp({ jobs: 'enqueue' }),
  ]);
  mock = prism;
  const server = await listen(app.app);
  real = { app, close: server.close };
  // Prism's security check only needs an `Authorization: Bearer …` header.
  targets.set('prism mock', {
    baseUrl: prism.url,
    credential: 'any-token',
    fixtures: {},
    expectSuccess: true,
    watchPrism: true,
  });
  targets.set('real server', {
    baseUrl: server.url,
    ...(await seedWorkspace(server.url, 'contract')),
    expectSuccess: false,
    watchPrism: false,
  });
});

afterAll(async () => {
  await mock?.stop();
  await real?.close();
  await real?.app.close();
});

describe('the operation list', () => {
  it('holds every operation of the contract, each with an SDK function', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:1' }) as unknown as Record<string, unknown>;
    expect(operations.map((op) => op.operationId).sort()).toEqual([...contract.operations.keys()].sort());
    expect(Object.keys(operationBindings).sort()).toEqual([...contract.operations.keys()].sort());
    for (const id of contract.operations.keys()) expect(typeof client[id], `SDK function ${id}`).toBe('function');
    expect(cases).toHaveLength(contract.operations.size);
  });

  it('binds every tool to its operation exactly as the SDK does', () => {
    // parseAs tells the SDK to read a text body (a CSV download); a tool reads results by their content type.
    for (const tool of toolDescriptors) {
      const { parseAs: _text, ...binding } = operationBindings[
        tool.binding.operationId
      ] as (typeof operationBindings)[string] & { parseAs?: string };
      expect(tool.binding, tool.name).toEqual(binding);
    }
  });
});

for (const targetName of ['prism mock', 'real server']) {
  describe(`the SDK against the ${targetName}`, () => {
    for (const binding of cases) {
      const test = knownFaults[`${targetName}:${binding.operationId}`] ? it.fails : it;
      test(`${binding.operationId} answers a declared status with a body the contract allows`, async () => {
        const target = targets.get(targetName);
        if (!target) throw new Error(`${targetName} did not start`);
        covered.set(targetName, (covered.get(targetName) ?? new Set()).add(binding.operationId));
        const outcome = await callOperation(target, binding);
        checkOutcome(contract, binding.operationId, outcome);
        // An operation that declares a redirect (a join link) succeeds with it: the SDK does not follow it.
        if (target.expectSuccess)
          expect(outcome.status, `${targetName} answered ${binding.operationId} with ${outcome.status}`).toBeLessThan(
            binding.redirect ? 400 : 300,
          );
        if (target.watchPrism) expect(outcome.prismReports, 'Prism reported violations').toEqual([]);
      });
    }
  });
}

describe('coverage', () => {
  it('ran every operation against both targets', () => {
    for (const name of ['prism mock', 'real server'])
      expect([...(covered.get(name) ?? [])].sort(), name).toEqual([...contract.operations.keys()].sort());
  });
});

async function callOperation(target: Target, binding: OperationBinding): Promise<Outcome> {
  const args = new Sampler(contract, target.fixtures).args(binding);
  const tool = toolDescriptors.find((t) => t.binding.operationId === binding.operationId);
  if (tool) {
    const validate = contract.compile(tool.inputSchema);
    expect(
      validate(args),
      `sampled args fit the ${tool.name} tool's inputSchema: ${JSON.stringify(validate.errors)}`,
    ).toBe(true);
  }
  const watch = watchPrism();
  let last: Response | undefined;
  const fetchAndRecord = async (request: Request) => (last = await watch.fetch(request));
  const client = createClient({
    baseUrl: target.baseUrl,
    credential: target.credential,
    fetch: fetchAndRecord,
    maxRetries: 0,
  });
  const call = (client as unknown as Record<string, (a: unknown) => Promise<unknown>>)[binding.operationId];
  let body: unknown;
  let threw = false;
  try {
    body = await call(args);
  } catch (error) {
    if (!(error instanceof ApiProblemError)) throw error;
    body = error.problem;
    threw = true;
  }
  if (!last) throw new Error(`${binding.operationId} sent no request`);
  return {
    status: last.status,
    contentType: last.headers.get('content-type'),
    body,
    threw,
    prismReports: watch.reports,
  };
}
