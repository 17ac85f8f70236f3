// What the agent-run tests share around the scripted agent: a listening stack with jobs running and a
// bootstrap key, the human approving in the admin panel in Chromium, the sandbox mailbox read through the
// agent's own session, and the reconnect a stateless HTTP connection needs after signup.
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { openPage, signInThroughForm } from '../admin/helpers/browser.ts';
import { call, type AgentSession, type Delivered, type ScenarioWorld } from './agent-run-scenario.ts';

const env = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  KNOWLEDGE_CRAWL_DELAY_MS: '0',
  SEQUENCE_SEND_SPACING_MS: '0',
  MCP_ALLOWED_ORIGINS: '',
};

export interface Stack {
  t: TestApp;
  url: string;
  bootstrap: string;
  close(): Promise<void>;
}

export async function stack(extraEnv: Record<string, string> = {}): Promise<Stack> {
  const { app: t, server } = await listenOnReservedPort({ jobs: 'work', env: { ...env, ...extraEnv } });
  const someone = await t.signup();
  const { key } = await t.createKey(someone.token, 'bootstrap');
  return {
    t,
    url: server.url,
    bootstrap: key,
    close: async () => {
      await server.close();
      await t.close();
    },
  };
}

/** The human signs in to the admin panel at the approval URL and approves the sequence. */
export function approveInPanel(browser: Browser): ScenarioWorld['approve'] {
  return async (url, email, password) => {
    const admin = await openPage(browser, new URL(url).origin);
    await admin.page.goto(url);
    await signInThroughForm(admin.page, email, password);
    await admin.page.getByRole('button', { name: 'Approve' }).click();
    await admin.page
      .getByRole('dialog', { name: 'Approve this sequence?' })
      .getByRole('button', { name: /^Approve revision/ })
      .click();
    await admin.page.getByText('This sequence is approved: there is nothing to decide here.').waitFor();
    await admin.context.close();
  };
}

export const sandboxMailbox: ScenarioWorld['delivered'] = async (session, account) => {
  const page = await call(session, 'list_sandbox_messages', { limit: 50 });
  return page.data
    .filter((m: any) => m.account_email === account)
    .map(
      (m: any): Delivered => ({
        to: m.to,
        subject: m.subject,
        text: m.text,
        listUnsubscribe: m.list_unsubscribe,
        listUnsubscribePost: m.list_unsubscribe_post,
      }),
    );
};

/** Over stateless HTTP, signup's note says to reconnect with the new credential; the agent does. */
export function reconnectOverHttp(
  connect: (credential: string) => Promise<AgentSession>,
): ScenarioWorld['afterSignup'] {
  return async (session, token, result) => {
    const note = (result.content ?? []).map((c) => c.text ?? '').join('\n');
    expect(note).toMatch(/reconnect/i);
    await session.close();
    return connect(token);
  };
}

/** Over the stdio launcher, signup's note says the launcher now acts with the new credential. */
export const adoptedByLauncher: ScenarioWorld['afterSignup'] = async (session, _token, result) => {
  expect((result.content ?? []).map((c) => c.text ?? '').join('\n')).toMatch(/service-mcp now acts with/);
  return session;
};
