// The page an email's unsubscribe link opens. A GET only shows a confirmation form: mail scanners follow
// links, and a GET must never unsubscribe (unsubscribe_one_click, the form's POST, does).
import type { UnsubscribePageInput, UnsubscribePageOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { findLead } from '../leads/leads-data.ts';
import { escapeHtml, renderPage } from '../../http/page.ts';
import type { HandlerContext } from '../context.ts';
import { inSandbox, invalidLinkPage, senderOf, senderText, type UnsubscribeOutcome } from './unsubscribe-sender.ts';
import { verifyUnsubscribe } from './unsubscribe-token.ts';

/** Reads a link without acting on it. */
export async function unsubscribePage(deps: Deps, token: string): Promise<UnsubscribeOutcome> {
  const target = verifyUnsubscribe(deps.auth.apiKeyPepper, token);
  if (!target) return { ok: false };
  const [lead, sender] = await Promise.all([
    findLead(deps.db.sql, target.workspaceId, target.leadId),
    senderOf(deps, target),
  ]);
  return { ok: true, target, email: lead?.email ?? null, already: !lead || lead.status !== 'active', sender };
}

export async function handle(input: UnsubscribePageInput, ctx: HandlerContext): Promise<UnsubscribePageOutput> {
  const link = await unsubscribePage(ctx.deps, input.path.token);
  if (!link.ok) return invalidLinkPage;
  const who = link.email ? ` <strong>${escapeHtml(link.email)}</strong>` : '';
  const from = senderText(link.sender);
  const body = link.already
    ? `<p>The address${who} is already unsubscribed: you will no longer receive emails from ${from}.</p>`
    : `<p>Unsubscribe${who} from emails by ${from}?</p>
<p>You will no longer receive emails from ${from}: no message from any of this sender's sequences.</p>
<form method="post" action="/unsubscribe/${escapeHtml(input.path.token)}"><button type="submit">Unsubscribe</button></form>`;
  return {
    status: 200,
    body: renderPage({ title: 'Unsubscribe', body, sandbox: inSandbox(ctx), brand: link.sender.name }),
  };
}
