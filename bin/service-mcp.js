#!/usr/bin/env node
// `service-mcp`: starts the MCP stdio server from the service's build (dist/service-mcp.js, bundled by
// scripts/build.ts), building first when dist/ is missing or stale, as `npm start` does. Plain node from any working
// directory, no TypeScript loader; stdout carries protocol messages only, so a build's output goes to stderr.
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/build-if-stale.js';

// `--tools <module>` serves another descriptor module; a TypeScript one (the tests' fixtures) needs tsx's loader,
// a development dependency, loaded for that case alone.
const tools = process.argv[process.argv.indexOf('--tools') + 1];
if (process.argv.includes('--tools') && tools?.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
}
try {
  buildIfStale();
} catch (error) {
  process.stderr.write(`service-mcp: ${error.message}\n`);
  process.exit(1);
}
await import('../dist/service-mcp.js');
