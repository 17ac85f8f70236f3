// A client of the cluster through nginx, as users and agents reach it: REST calls, sign-ups and keys, MCP
// sessions in either protocol era, and the human's approval over REST. Which instance answered each request
// is in the `X-Upstream` header the test's nginx adds.
import { expect } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AgentSession, ScenarioWorld } from '../e2e/agent-run-scenario.ts';

export interface Owner {
  token: string;
  email: string;
  password: string;
  workspaceId: string;
}

export interface Front {
  url: string;
  /** A JSON call that must answer `status` (default 200); returns the body. */
  api<T = any>(
    path: string,
    options?: { method?: string; token?: string; json?: unknown; status?: number },
  ): Promise<T>;
  signup(): Promise<Owner>;
  createKey(token: string, name: string): Promise<{ id: string; key: string }>;
  /** `auto` negotiates the 2026-07-28 era; `legacy` stays in the 2025-11-25 one. */
  mcpSession(credential: string, mode: 'legacy' | 'auto'): Promise<AgentSession>;
  /** The human approves the pending sequence over the REST API with their login (agents cannot approve). */
  approve: ScenarioWorld['approve'];
}

/** Which instance answered, by the port nginx names in X-Upstream. */
export const answeredBy = (res: Response) => Number(res.headers.get('x-upstream')?.split(':').at(-1));

export async function until<T>(
  what: string,
  seconds: number,
  read: () => Promise<T>,
  done: (v: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`gave up after ${seconds} s waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function front(url: string): Front {
  let people = 0;
  const api: Front['api'] = async (path, options = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: options.method ?? 'GET',
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
    });
    const text = await res.text();
    expect(res.status, `${options.method ?? 'GET'} ${path}: ${text}`).toBe(options.status ?? 200);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    url,
    api,
    async signup() {
      const email = `topology.${process.pid}.${Date.now()}.${people++}@example.com`;
      const password = 'correct horse battery staple';
      const body = await api('/api/v1/users/signup', {
        method: 'POST',
        status: 201,
        json: { email, password, name: 'Topology Owner', workspace_name: 'Topology Inc' },
      });
      return { token: body.login.access_token, email, password, workspaceId: body.workspace.id };
    },
    createKey: (token, name) => api('/api/v1/api-keys', { method: 'POST', token, status: 201, json: { name } }),
    async mcpSession(credential, mode) {
      const client = new Client({ name: 'topology', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${credential}` } },
        }),
      );
      expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
      return {
        callTool: (name, args) => client.callTool({ name, arguments: args }) as never,
        close: () => client.close(),
      };
    },
    async approve(approvalUrl, email, password) {
      expect(approvalUrl.startsWith(`${url}/`), approvalUrl).toBe(true);
      const { access_token: token } = await api('/api/v1/users/login', { method: 'POST', json: { email, password } });
      const pending = (await api('/api/v1/sequences', { token })).data.find(
        (s: { status: string }) => s.status === 'pending_approval',
      );
      await api(`/api/v1/sequences/${pending.id}/approve`, {
        method: 'POST',
        token,
        json: { revision: pending.revision },
      });
    },
  };
}
