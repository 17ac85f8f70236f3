// Entry of the installable `service-mcp` launcher: the server's own stdio launcher code (src/mcp) serving
// the generated tool descriptors, bundled into one JavaScript file by packages/build.ts. It differs from
// bin/service-mcp.js only in what it reads at start: its version from this package, its tools from the
// bundle (no `--tools`, no tsx).
import { createRequire } from 'node:module';
import { retryingFetch } from '@service-mcp/sdk';
import { toolDescriptors, toolsets } from '../../../src/generated/mcp-tools.ts';
import type { ToolSelection } from '../../../src/mcp/connection-view.ts';
import {
  checkKey,
  LaunchError,
  readConfig,
  readSelection,
  startStdioServer,
  type StdioConfig,
} from '../../../src/mcp/stdio.ts';

function serve(config: StdioConfig, selection: ToolSelection, version: string) {
  // The SDK's transport: retries 429/503 honouring Retry-After, as the in-repo launcher does.
  const send = retryingFetch((request: Request) => fetch(request), 2, 30_000);
  // The in-repo launcher's server, so both switch to a credential a signup or login call returns.
  return startStdioServer({ tools: toolDescriptors, toolsets, selection, config, fetch: send, version });
}

async function main(): Promise<void> {
  try {
    const config = readConfig(process.env);
    const selection = readSelection(process.env, toolsets);
    await checkKey(config);
    // dist/service-mcp.js -> the package's own package.json.
    const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
    serve(config, selection, version);
  } catch (error) {
    const line = error instanceof LaunchError ? error.message : `service-mcp: failed to start: ${String(error)}`;
    process.stderr.write(`${line.replaceAll('\n', ' ')}\n`);
    process.exit(1);
  }
}

await main();
