// The first step of an agent's run, against the real app: it connects with some credential, signs up, and
// must then act in the new workspace. The stdio launcher switches to the returned login for the rest of its
// process; a /mcp connection keeps its credential and tells the client to reconnect with the returned one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTestApp, listen, uniqueEmail, type SignupResult, type TestApp } from '../helpers/app.ts';

const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));

let t: TestApp;
let api: Awaited<ReturnType<typeof listen>>;
let first: SignupResult;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  api = await listen(t.app);
  first = await t.signup({ workspace_name: 'Where the key lives' });
  key = (await t.createKey(first.token, 'agent')).key;
});
afterAll(async () => {
  await api?.close();
  await t?.close();
});

type Result = Awaited<ReturnType<Client['callTool']>>;
const texts = (result: Result) => (result.content as { type: string; text: string }[]).map((c) => c.text);
const signupArgs = (workspace: string) => ({
  email: uniqueEmail('agent'),
  password: 'correct horse battery',
  name: 'Agent',
  workspace_name: workspace,
});

async function workspaceOf(client: Client): Promise<string> {
  const me = await client.callTool({ name: 'get_me', arguments: {} });
  expect(me.isError).toBeFalsy();
  return (me.structuredContent as { workspace: { name: string } }).workspace.name;
}

async function stdioClient(): Promise<Client> {
  const client = new Client({ name: 'signup-stdio', version: '1' });
  const env = { PATH: process.env.PATH ?? '', SERVICE_API_KEY: key, SERVICE_API_BASE: api.url };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin], env, cwd: '/' }));
  return client;
}

async function httpClient(credential: string): Promise<Client> {
  const client = new Client({ name: 'signup-http', version: '1' });
  const headers = { authorization: `Bearer ${credential}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers } }));
  return client;
}

describe('service-mcp after signup', () => {
  it('acts in the new workspace, keeps doing so after a failed login, and starts from SERVICE_API_KEY again', async () => {
    const client = await stdioClient();
    try {
      expect(await workspaceOf(client)).toBe('Where the key lives');
      const args = signupArgs('Made by the agent');
      const signup = await client.callTool({ name: 'signup', arguments: args });
      expect(signup.isError).toBeFalsy();
      const body = signup.structuredContent as { workspace: { id: string; name: string } };
      expect(texts(signup)).toHaveLength(2);
      expect(JSON.parse(texts(signup)[0])).toEqual(body);
      expect(texts(signup)[1]).toMatch(
        new RegExp(
          `^service-mcp now acts with the credential this call returned \\(workspace "Made by the agent" \\(${body.workspace.id}\\)\\) for the rest of this process; restarting it returns to SERVICE_API_KEY\\.`,
        ),
      );
      expect(await workspaceOf(client)).toBe('Made by the agent');

      const refused = await client.callTool({
        name: 'login',
        arguments: { email: first.email, password: 'not the password' },
      });
      expect(refused.isError).toBe(true);
      expect(texts(refused)).toHaveLength(1);
      expect(await workspaceOf(client)).toBe('Made by the agent');

      const login = await client.callTool({
        name: 'login',
        arguments: { email: first.email, password: first.password },
      });
      expect(texts(login)[1]).toContain('(the workspace this login is for)');
      expect(await workspaceOf(client)).toBe('Where the key lives');
    } finally {
      await client.close();
    }
    const restarted = await stdioClient();
    try {
      const me = await restarted.callTool({ name: 'get_me', arguments: {} });
      expect(me.structuredContent).toMatchObject({
        workspace: { name: 'Where the key lives' },
        credential: { type: 'api_key' },
      });
    } finally {
      await restarted.close();
    }
  });

  it('leaves the credential alone when signup is refused', async () => {
    const client = await stdioClient();
    try {
      const taken = await client.callTool({
        name: 'signup',
        arguments: { ...signupArgs('Never made'), email: first.email },
      });
      expect(taken.isError).toBe(true);
      expect(texts(taken)[0]).toMatch(/^409 Conflict: An account with this email already exists/);
      expect(await workspaceOf(client)).toBe('Where the key lives');
    } finally {
      await client.close();
    }
  });
});

describe('POST /mcp after signup', () => {
  it('keeps the connection credential, says to reconnect with the returned one, and the reconnected client acts in the new workspace', async () => {
    const client = await httpClient(key);
    let token: string;
    try {
      const signup = await client.callTool({ name: 'signup', arguments: signupArgs('Reached by reconnecting') });
      expect(signup.isError).toBeFalsy();
      const body = signup.structuredContent as { workspace: { id: string }; login: { access_token: string } };
      token = body.login.access_token;
      expect(JSON.parse(texts(signup)[0])).toEqual(body);
      expect(texts(signup)[1]).toBe(
        `This connection still acts with the credential it connected with. To act in workspace "Reached by reconnecting" (${body.workspace.id}), ` +
          'reconnect to /mcp with the header `Authorization: Bearer <login.access_token>` (the `login.access_token` of this result). ' +
          `It expires in ${t.config.jwt.ttlSeconds} s; call login again for a fresh one.`,
      );
      expect(await workspaceOf(client)).toBe('Where the key lives');
    } finally {
      await client.close();
    }
    const reconnected = await httpClient(token);
    try {
      expect(await workspaceOf(reconnected)).toBe('Reached by reconnecting');
    } finally {
      await reconnected.close();
    }
  });
});
