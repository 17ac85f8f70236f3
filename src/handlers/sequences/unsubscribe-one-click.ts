// Unsubscribing through an email's signed link: the recipient's own confirmation (the form of
// unsubscribe_page), or the RFC 8058 one-click POST their mail client sends. The lead becomes unsubscribed,
// its address goes on the suppression list, and every enrollment it has stops at once with its unsent
// messages cancelled.
import type { UnsubscribeOneClickInput, UnsubscribeOneClickOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { findLead, setLeadStatus } from '../leads/leads-data.ts';
import { suppress } from '../leads/lead-suppressions-data.ts';
import { escapeHtml, renderPage } from '../../http/page.ts';
import type { HandlerContext } from '../context.ts';
import { recordEvent } from '../events/record-event.ts';
import { stopEnrollments } from './sequence-enrollments-data.ts';
import { inSandbox, invalidLinkPage, senderOf, senderText, type UnsubscribeOutcome } from './unsubscribe-sender.ts';
import { verifyUnsubscribe } from './unsubscribe-token.ts';

export async function unsubscribeOneClick(
  deps: Deps,
  request: { token: string; via: 'page' | 'one_click' },
): Promise<UnsubscribeOutcome> {
  const target = verifyUnsubscribe(deps.auth.apiKeyPepper, request.token);
  if (!target) return { ok: false };
  const { workspaceId, leadId } = target;
  const sender = await senderOf(deps, target);
  return deps.db.sql.begin(async (tx) => {
    // The lead before its enrollments: the order a send to it takes (findLead's lock).
    const lead = await findLead(tx, workspaceId, leadId, { lock: 'no key update' });
    // A deleted lead's address is already on the suppression list.
    if (!lead) return { ok: true as const, target, email: null, already: true, sender };
    const now = deps.clock.now();
    await suppress(tx, workspaceId, lead.email, 'unsubscribed', now);
    const stopped = await stopEnrollments(
      tx,
      workspaceId,
      { leadId },
      { status: 'stopped', reason: 'unsubscribed', now },
    );
    const already = lead.status !== 'active';
    if (!already) {
      const row = await setLeadStatus(tx, workspaceId, leadId, 'unsubscribed', now);
      await recordEvent(deps, tx, workspaceId, { type: 'system', id: null }, 'lead.unsubscribed', {
        id: leadId,
        status: row?.status ?? 'unsubscribed',
        sequence_id: target.sequenceId,
        via: request.via,
        enrollments_stopped: stopped.length,
      });
    }
    return { ok: true as const, target, email: lead.email, already, sender };
  });
}

export async function handle(input: UnsubscribeOneClickInput, ctx: HandlerContext): Promise<UnsubscribeOneClickOutput> {
  const oneClick = input.body?.['List-Unsubscribe'] === 'One-Click';
  const done = await unsubscribeOneClick(ctx.deps, { token: input.path.token, via: oneClick ? 'one_click' : 'page' });
  if (!done.ok) return invalidLinkPage;
  const who = done.email ? ` <strong>${escapeHtml(done.email)}</strong>` : '';
  const body = `<p>Done: you will no longer receive emails from ${senderText(done.sender)}${who ? ` at${who}` : ''}.</p>`;
  return {
    status: 200,
    body: renderPage({ title: 'Unsubscribed', body, sandbox: inSandbox(ctx), brand: done.sender.name }),
  };
}
