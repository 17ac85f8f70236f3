// What both unsubscribe pages share: the outcome of reading a link, who sent the mail (looked up, and as
// the escaped text a page shows), and the page for a link this service did not sign.
import { findConnector } from '../connectors/connectors-data.ts';
import { findWorkspace } from '../users/workspaces-data.ts';
import type { Deps } from '../../deps.ts';
import { escapeHtml, renderPage } from '../../http/page.ts';
import type { HandlerContext } from '../context.ts';
import { findSequence } from './sequences-data.ts';
import { pinnedMailbox } from './sequence-enrollments-data.ts';
import type { UnsubscribeTarget } from './unsubscribe-token.ts';

/** Who sent the mail: the workspace (the company) and the address its sequence sends from, when still known. */
export interface UnsubscribeSender {
  name: string | null;
  address: string | null;
}

export type UnsubscribeOutcome =
  | { ok: false }
  | { ok: true; target: UnsubscribeTarget; email: string | null; already: boolean; sender: UnsubscribeSender };

/** The sender a recipient recognises, so the page says whose emails stop. */
export async function senderOf(deps: Deps, target: UnsubscribeTarget): Promise<UnsubscribeSender> {
  const sql = deps.db.sql;
  const [workspace, sequence] = await Promise.all([
    findWorkspace(sql, target.workspaceId),
    findSequence(sql, target.workspaceId, target.sequenceId),
  ]);
  // The mailbox the lead's mail came from: its enrollment's pin, else the sequence's first.
  const pinned = await pinnedMailbox(sql, target.workspaceId, target.sequenceId, target.leadId);
  const connectorId = pinned ?? sequence?.sender_connector_id;
  const connector = connectorId ? await findConnector(sql, target.workspaceId, connectorId) : undefined;
  return { name: workspace?.name ?? null, address: connector?.account_email ?? null };
}

/** "Acme Ltd (news@acme.example)", as much of it as is still known, escaped. */
export function senderText(sender: UnsubscribeSender): string {
  const name = sender.name ? `<strong>${escapeHtml(sender.name)}</strong>` : 'this sender';
  return sender.address ? `${name} (<strong>${escapeHtml(sender.address)}</strong>)` : name;
}

export const invalidLinkPage = {
  status: 400 as const,
  body: renderPage({
    title: 'Link not recognised',
    body: '<p>This unsubscribe link is not one we sent, or it was cut short. Copy the whole link from the email, or reply to the sender and ask to be removed.</p>',
  }),
};

export const inSandbox = (ctx: HandlerContext) => ctx.deps.connectors.gmail.mode === 'sandbox';
