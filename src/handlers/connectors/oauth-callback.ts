import type { OauthCallbackInput, OauthCallbackOutput } from '../../generated/handlers.ts';
import { completeOAuth, refusalText } from './complete-oauth.ts';
import { providerFor } from './providers/providers.ts';
import { escapeHtml, renderPage } from '../../http/page.ts';
import type { HandlerContext } from '../context.ts';

/** The page the human's browser lands on after consent: what happened, and what to do next. */
export async function oauthCallback(input: OauthCallbackInput, ctx: HandlerContext): Promise<OauthCallbackOutput> {
  const { state, code, error } = input.query;
  const outcome = await completeOAuth(ctx.deps, { state, code, error });
  const sandbox = (outcome.connector?.mode ?? ctx.deps.connectors.gmail.mode) === 'sandbox';
  if (outcome.ok) {
    const { connector } = outcome;
    const label = providerFor(connector.provider)?.label ?? connector.provider;
    const body = `<p>${escapeHtml(label)} is connected as <strong>${escapeHtml(connector.account_email ?? '')}</strong>${sandbox ? ' (sandbox mode)' : ''}.</p>
<p>You can close this tab and go back to your agent: it will see the connection within seconds.</p>
<p>Connector: <code>${escapeHtml(connector.id)}</code></p>`;
    return { status: 200, body: renderPage({ title: 'Connected', body, sandbox }) };
  }
  const text = refusalText[outcome.reason];
  const body = `<p>${escapeHtml(text.body)}</p>${outcome.connector ? `<p>Connector: <code>${escapeHtml(outcome.connector.id)}</code></p>` : ''}<p>Reason code: <code>${escapeHtml(outcome.reason)}</code></p>`;
  const status = outcome.reason === 'consent_denied' ? 200 : outcome.status;
  return { status, body: renderPage({ title: text.title, body, sandbox }) };
}
