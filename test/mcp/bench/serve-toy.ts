// Child process for the MCP benchmark: serves the toy app twice (with and without the fast path), prints both URLs
// as one JSON line on stdout, and answers IPC messages with its CPU time so the parent can charge server CPU per
// request independently of the load generator.

import { createToyApp } from '../fixtures/toy-app.ts';
import { listen } from '../fixtures/listen.ts';

const fast = await listen(createToyApp().app);
const sdk = await listen(createToyApp({ fastPath: false }).app);
process.stdout.write(`${JSON.stringify({ fast: fast.url, sdk: sdk.url })}\n`);
process.on('message', () => {
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuMicros: user + system });
});
// A normal exit on SIGTERM lets `node --cpu-prof` write its profile.
process.on('SIGTERM', () => process.exit(0));
