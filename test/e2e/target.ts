// Where an end-to-end scenario runs: the real server directly, or `prism proxy --errors` in front of
// it. Scenarios only see this interface, so the same scenario runs against both.
import { expect } from 'vitest';
import { ApiProblemError, createClient, type Client } from '../../src/generated/sdk.ts';
import { prismErrorType, watchPrism, type PrismReport, type PrismWatch } from '../helpers/prism.ts';

export interface E2eTarget {
  baseUrl: string;
  /** A generated SDK client for this target, with an optional bearer credential. */
  client(credential?: string): Client;
  /**
   * Asserts that a request the contract forbids is refused as invalid, naming `field`: by the server
   * with a 400 problem, or, behind the proxy, by Prism's request validation before it reaches the server.
   */
  expectInvalidRequest(call: Promise<unknown>, field: string): Promise<void>;
}

async function problemOf(call: Promise<unknown>): Promise<ApiProblemError> {
  const error = await call.then(
    (value) => new Error(`expected the call to fail, it returned ${JSON.stringify(value)}`),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiProblemError);
  return error as ApiProblemError;
}

function clientFactory(baseUrl: string, fetch?: (request: Request) => Promise<Response>) {
  return (credential?: string) => createClient({ baseUrl, credential, fetch, maxRetries: 0 });
}

export function directTarget(baseUrl: string): E2eTarget {
  return {
    baseUrl,
    client: clientFactory(baseUrl),
    async expectInvalidRequest(call, field) {
      const error = await problemOf(call);
      const problem = error.problem as { code: string; errors?: Array<{ pointer?: string; field?: string }> };
      expect(error.status).toBe(400);
      expect(problem.code).toBe('validation_failed');
      expect(
        problem.errors?.some((e) => e.pointer === `/${field}` || e.field === field),
        JSON.stringify(problem),
      ).toBe(true);
    },
  };
}

export interface ProxyTarget extends E2eTarget {
  /** Everything Prism reported that no scenario expected; must be empty after each scenario. */
  reports: PrismReport[];
}

export function prismProxyTarget(proxyUrl: string): ProxyTarget {
  const watch: PrismWatch = watchPrism();
  return {
    baseUrl: proxyUrl,
    client: clientFactory(proxyUrl, watch.fetch),
    reports: watch.reports,
    async expectInvalidRequest(call, field) {
      const error = await problemOf(call);
      const problem = error.problem as { type: string; validation?: Array<{ location: string[] }> };
      expect(error.status).toBe(422);
      expect(problem.type).toBe(`${prismErrorType}UNPROCESSABLE_ENTITY`);
      expect(
        problem.validation?.some((v) => v.location.at(-1) === field),
        JSON.stringify(problem),
      ).toBe(true);
      // The refusal was asked for; only it may be taken off the record, nothing else.
      const taken = watch.take((r) => r.prismProblem?.type === problem.type && r.status === 422);
      expect(taken).toHaveLength(1);
    },
  };
}
