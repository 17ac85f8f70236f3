// Logs are JSON lines: building the app (and its /mcp endpoint) writes nothing to the console, where a
// plain-text line would land in the JSON log stream.

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

describe('createApp start-up', () => {
  it('writes nothing to the console while building the app and its /mcp endpoint', () => {
    const written = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level));
    createApp(t.deps);
    for (const spy of written) expect(spy.mock.calls).toEqual([]);
  });
});
