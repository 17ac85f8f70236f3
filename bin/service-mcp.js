#!/usr/bin/env node
// `service-mcp`: starts the MCP stdio server. The sources are TypeScript run without a build step, so this plain
// JavaScript entry registers tsx's loader first; it must run under plain `node` from any working directory.

import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/mcp/stdio.ts');
await main();
