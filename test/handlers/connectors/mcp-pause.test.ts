// The OAuth pause as an agent lives it, over /mcp with the official SDK client: start_connector_oauth
// gives the link and the next step; the test plays the human over plain HTTP; get_connector with
// wait_seconds returns `connected`; send_test_email puts the message in the sandbox mailbox. A client
// that declared URL-mode elicitation gets the -32042 error carrying the consent link from a tool that
// cannot proceed without consent, and retries the same call once the human allowed; one that did not
// declare it gets the 409 result naming the link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { playHuman } from './human.ts';
import { listenOnReservedPort } from './listen.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
const clients: Client[] = [];

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ env: { OPERATION_WAIT_RECHECK_MS: '600000' } }));
  owner = await t.signup();
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.close();
  await t?.close();
});

async function connect(options: { elicitation: boolean; mode?: 'auto' | 'legacy' }): Promise<Client> {
  const client = new Client(
    { name: 'pause-test', version: '1.0.0' },
    {
      capabilities: options.elicitation ? { elicitation: { url: {} } } : {},
      versionNegotiation: { mode: options.mode ?? 'auto' },
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
    }),
  );
  clients.push(client);
  return client;
}

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<Result>;

describe('the OAuth pause over MCP', () => {
  it('runs start_connector_oauth -> human consent -> get_connector(wait) -> send_test_email -> sandbox mailbox, with URL elicitation', async () => {
    const client = await connect({ elicitation: true });
    const started = await call(client, 'start_connector_oauth', { provider: 'gmail' });
    expect(started.isError).toBeFalsy();
    const connector = started.structuredContent as {
      id: string;
      status: string;
      mode: string;
      authorization_url: string;
      next_action: string;
    };
    expect(connector).toMatchObject({ status: 'pending_consent', mode: 'sandbox' });
    expect(connector.next_action).toContain(connector.authorization_url);

    // The tool cannot proceed without consent: the client is handed the link to show.
    const refused = await call(client, 'send_test_email', { connector_id: connector.id, to: 'grace@example.com' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (refused as UrlElicitationRequiredError).elicitations;
    expect(elicitation).toMatchObject({ mode: 'url', url: connector.authorization_url });

    const waiting = call(client, 'get_connector', { connector_id: connector.id, wait_seconds: 30 });
    const page = await playHuman(elicitation.url, { email: 'agent.owner@sandbox.example' });
    expect(page.status).toBe(200);
    const connected = await waiting;
    expect(connected.structuredContent).toMatchObject({
      status: 'connected',
      account_email: 'agent.owner@sandbox.example',
      next_action: null,
    });

    const sent = await call(client, 'send_test_email', { connector_id: connector.id, to: 'grace@example.com' });
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ mode: 'sandbox', to: 'grace@example.com' });
    const inbox = await call(client, 'list_sandbox_messages', { connector_id: connector.id });
    expect(inbox.structuredContent.data).toHaveLength(1);
    expect(inbox.structuredContent.data[0]).toMatchObject({
      to: 'grace@example.com',
      account_email: 'agent.owner@sandbox.example',
    });
  });

  it('answers a client without URL elicitation with the 409 result naming the link', async () => {
    const client = await connect({ elicitation: false });
    const connector = (await call(client, 'start_connector_oauth', { provider: 'gmail' })).structuredContent as {
      id: string;
      authorization_url: string;
    };
    const result = await call(client, 'send_test_email', { connector_id: connector.id, to: 'grace@example.com' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^409 /);
    expect(result.content[0].text).toContain(connector.authorization_url);
  });

  it('answers a 2025-era client over stateless HTTP with the 409 result, since its capabilities are not known to the exchange', async () => {
    const client = await connect({ elicitation: true, mode: 'legacy' });
    const connector = (await call(client, 'start_connector_oauth', { provider: 'gmail' })).structuredContent as {
      id: string;
      authorization_url: string;
    };
    const result = await call(client, 'send_test_email', { connector_id: connector.id, to: 'grace@example.com' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain(connector.authorization_url);
  });

  it('elicits the consent URL over the stdio launcher, whose connection keeps the capabilities declared at initialize', async () => {
    const key = await t.createKey(owner.token, 'stdio pause');
    const bin = fileURLToPath(new URL('../../../bin/service-mcp.js', import.meta.url));
    const client = new Client(
      { name: 'stdio-pause', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin],
        env: { PATH: process.env.PATH ?? '', SERVICE_API_KEY: key.key, SERVICE_API_BASE: server.url },
        cwd: '/',
      }),
    );
    clients.push(client);
    const connector = (await call(client, 'start_connector_oauth', { provider: 'gmail' })).structuredContent as {
      id: string;
      authorization_url: string;
    };
    const refused = await call(client, 'send_test_email', { connector_id: connector.id, to: 'grace@example.com' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UrlElicitationRequiredError);
    expect((refused as UrlElicitationRequiredError).elicitations[0].url).toBe(connector.authorization_url);
  });
});
