// The pages an email recipient sees. GET only shows a confirmation form (mail scanners follow links; a GET
// must never unsubscribe); POST, from that form or from the mail client's one-click, unsubscribes.
import type { UnsubscribeOneClickInput, UnsubscribeOneClickOutput, UnsubscribePageInput, UnsubscribePageOutput } from '../../generated/handlers.ts';
import { readUnsubscribeLink, unsubscribeByLink, type UnsubscribeSender } from './unsubscribe-logic.ts';
import { escapeHtml, renderPage } from '../../http/page.ts';
import type { HandlerContext } from '../context.ts';

const invalid = { status: 400 as const, body: renderPage({ title: 'Link not recognised', body: '<p>This unsubscribe link is not one we sent, or it was cut short. Copy the whole link from the email, or reply to the sender and ask to be removed.</p>' }) };
const sandbox = (ctx: HandlerContext) => ctx.deps.connectors.gmail.mode === 'sandbox';

/** "Acme Ltd (news@acme.example)", as much of it as is still known, escaped. */
function senderText(sender: UnsubscribeSender): string {
  const name = sender.name ? `<strong>${escapeHtml(sender.name)}</strong>` : 'this sender';
  return sender.address ? `${name} (<strong>${escapeHtml(sender.address)}</strong>)` : name;
}

export async function unsubscribePage(input: UnsubscribePageInput, ctx: HandlerContext): Promise<UnsubscribePageOutput> {
  const link = await readUnsubscribeLink(ctx.deps, input.path.token);
  if (!link.ok) return invalid;
  const who = link.email ? ` <strong>${escapeHtml(link.email)}</strong>` : '';
  const from = senderText(link.sender);
  const body = link.already
    ? `<p>The address${who} is already unsubscribed from emails by ${from}. You will get no more of them.</p>`
    : `<p>Unsubscribe${who} from emails by ${from}? You will get no more messages from any of this sender's sequences.</p>
<form method="post" action="/unsubscribe/${escapeHtml(input.path.token)}"><button type="submit">Unsubscribe</button></form>`;
  return { status: 200, body: renderPage({ title: 'Unsubscribe', body, sandbox: sandbox(ctx) }) };
}

export async function unsubscribeOneClick(input: UnsubscribeOneClickInput, ctx: HandlerContext): Promise<UnsubscribeOneClickOutput> {
  const oneClick = input.body?.['List-Unsubscribe'] === 'One-Click';
  const done = await unsubscribeByLink(ctx.deps, input.path.token, oneClick ? 'one_click' : 'page');
  if (!done.ok) return invalid;
  const who = done.email ? ` <strong>${escapeHtml(done.email)}</strong>` : '';
  const body = `<p>Done: the address${who} will get no more emails from ${senderText(done.sender)}.</p>`;
  return { status: 200, body: renderPage({ title: 'Unsubscribed', body, sandbox: sandbox(ctx) }) };
}
