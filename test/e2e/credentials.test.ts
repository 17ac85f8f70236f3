// The credential scenarios twice: against the real server, and through `prism proxy --errors` in
// front of it, where every request and response is validated against the contract and anything
// Prism reports fails the scenario.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialScenarios } from './credentials-scenarios.ts';
import { startProxiedServer, type ProxiedServer } from './stack.ts';
import { directTarget, prismProxyTarget } from './target.ts';

let stack: ProxiedServer;

beforeAll(async () => {
  stack = await startProxiedServer();
});

afterAll(async () => {
  await stack?.close();
});

describe('credentials, directly against the server', () => {
  for (const [name, scenario] of Object.entries(credentialScenarios)) {
    it(`runs ${name}`, () => scenario(directTarget(stack.serverUrl)));
  }
});

describe('credentials, through prism proxy --errors', () => {
  for (const [name, scenario] of Object.entries(credentialScenarios)) {
    it(`runs ${name} with no contract violation`, async () => {
      const target = prismProxyTarget(stack.proxy.url);
      // A violation usually explains a failed step (Prism answered instead of the server), so it goes first.
      const failure = await scenario(target).then(
        () => undefined,
        (error: unknown) => error ?? new Error('scenario failed'),
      );
      expect(
        target.reports,
        `Prism reported contract violations; its log:\n${stack.proxy.output().slice(-4000)}`,
      ).toEqual([]);
      if (failure) throw failure;
    });
  }
});
