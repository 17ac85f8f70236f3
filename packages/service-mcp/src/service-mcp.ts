// Entry of the installable `service-mcp` launcher: the server's own stdio launcher code (src/mcp) serving
// the generated tool descriptors, bundled into one JavaScript file by packages/build.ts. It differs from
// bin/service-mcp.js only in what it reads at start: its version from this package, its tools from the
// bundle (no `--tools`, no tsx).
import { createRequire } from 'node:module';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { retryingFetch } from 'service-sdk';
import { toolDescriptors } from '../../../src/generated/mcp-tools.ts';
import { createToolDispatcher } from '../../../src/mcp/dispatch.ts';
import { createServerFactory, toWireTools } from '../../../src/mcp/server-factory.ts';
import { checkKey, LaunchError, readConfig, type StdioConfig } from '../../../src/mcp/stdio.ts';

function serve(config: StdioConfig, version: string) {
  // The SDK's transport: retries 429/503 honouring Retry-After, as the in-repo launcher does.
  const send = retryingFetch((request: Request) => fetch(request), 2, 30_000);
  const dispatcher = createToolDispatcher({ tools: toolDescriptors, fetch: send, baseUrl: config.apiBase });
  const authorization = `Bearer ${config.apiKey}`;
  const factory = createServerFactory({
    wireTools: toWireTools(toolDescriptors),
    dispatcher,
    serverInfo: { name: 'service-mcp', version },
    authorization: () => authorization,
  });
  return serveStdio(factory, { onerror: (error) => process.stderr.write(`service-mcp: ${error.message}\n`) });
}

async function main(): Promise<void> {
  try {
    const config = readConfig(process.env);
    await checkKey(config);
    // dist/service-mcp.js -> the package's own package.json.
    const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
    serve(config, version);
  } catch (error) {
    const line = error instanceof LaunchError ? error.message : `service-mcp: failed to start: ${String(error)}`;
    process.stderr.write(`${line.replaceAll('\n', ' ')}\n`);
    process.exit(1);
  }
}

await main();
