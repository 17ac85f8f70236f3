// The OAuth callback: the browser comes back from the provider with `state` and a `code` (or an
// `error`). Public (the human's browser carries no credential of ours): the state is the proof. It is
// single-use, expires in 10 minutes, and only completes the flow its connector is waiting for. Every
// refusal stores nothing; where the connector is known and still waiting for this flow, it fails with
// a reason. On success the tokens are sealed and stored, and `connector.connected` is recorded. A connected
// connector adding capabilities (incremental consent) stays connected: granted, its tokens and scopes are
// replaced by the new grant's; declined or expired, it stays as it was.
import { claimState } from './oauth-states-data.ts';
import { findConnector, markConnected, markFailed, type ConnectorRow } from './connectors-data.ts';
import { dropUpgradeConsent, markUpgraded } from './connector-upgrade-data.ts';
import type { OauthCallbackInput, OauthCallbackOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { escapeHtml, renderPage } from '../../http/page.ts';
import type { HandlerContext } from '../context.ts';
import { findWorkspace } from '../users/workspaces-data.ts';
import { recordEvent } from '../events/record-event.ts';
import { sha256Hex } from './pkce.ts';
import { providerFor } from './providers/providers.ts';
import { verifierAad } from './start-connector-oauth.ts';
import { sealTokens } from './tokens.ts';
import { connectorEventData } from './wire.ts';
import type { CallbackRefusal } from './providers/provider.ts';

export interface CallbackRequest {
  state?: string;
  code?: string;
  error?: string;
}

export type CallbackOutcome =
  | { ok: true; connector: ConnectorRow }
  | { ok: false; status: 400 | 502; reason: CallbackRefusal; connector?: ConnectorRow };

export async function oauthCallback(deps: Deps, request: CallbackRequest): Promise<CallbackOutcome> {
  if (!request.state) return { ok: false, status: 400, reason: 'state_missing' };
  const now = deps.clock.now();
  const stateHash = sha256Hex(request.state);
  const state = await claimState(deps.db.sql, stateHash, now);
  if (!state) return { ok: false, status: 400, reason: 'state_unknown' };
  if (state.used_at) return { ok: false, status: 400, reason: 'state_used' };
  const workspaceId = state.workspace_id;
  const current = await findConnector(deps.db.sql, workspaceId, state.connector_id);
  // A connected connector waits for a consent only to add capabilities; it stays connected whatever comes.
  const upgrading = current?.status === 'connected';
  if (!current || (!upgrading && current.status !== 'pending_consent') || current.pending_state_hash !== stateHash) {
    return { ok: false, status: 400, reason: 'state_superseded', connector: current };
  }
  const fail = (reason: CallbackRefusal, status: 400 | 502) =>
    upgrading ? keepAsItWas(deps, current, reason, status) : failFlow(deps, current, reason, status);
  if (state.expires_at.getTime() <= now.getTime()) return fail('state_expired', 400);
  if (request.error) return fail(request.error === 'access_denied' ? 'consent_denied' : 'provider_error', 400);
  if (!request.code) return fail('code_missing', 400);

  const provider = providerFor(current.provider);
  if (!provider) return fail('provider_error', 400);
  const verifier = deps.connectors.tokenKeys.open(
    verifierAad(workspaceId, stateHash),
    state.verifier_sealed,
    state.token_key_id,
  );
  const grant = await provider.exchange(deps, {
    code: request.code,
    verifier,
    redirectUri: state.redirect_uri,
    connectorId: state.connector_id,
  });
  if (!grant.ok) return fail(grant.reason, grant.status);
  if (upgrading && grant.account.toLowerCase() !== current.account_email?.toLowerCase())
    return fail('account_mismatch', 400);
  const sealed = sealTokens(deps, workspaceId, state.connector_id, grant.tokens);
  const connector = await deps.db.sql.begin(async (tx) => {
    const fields = {
      scopesGranted: grant.scopesGranted,
      tokensSealed: sealed.sealed,
      tokenKeyId: sealed.keyId,
      accessExpiresAt: new Date(deps.clock.now().getTime() + grant.expiresIn * 1000),
      now: deps.clock.now(),
    };
    const connected = upgrading
      ? await markUpgraded(tx, workspaceId, state.connector_id, stateHash, fields)
      : await markConnected(tx, workspaceId, state.connector_id, stateHash, { ...fields, accountEmail: grant.account });
    if (connected)
      await recordEvent(
        deps,
        tx,
        workspaceId,
        { type: state.user_id ? 'user' : 'system', id: state.user_id },
        'connector.connected',
        connectorEventData(connected),
      );
    return connected;
  });
  if (!connector)
    return {
      ok: false,
      status: 400,
      reason: 'state_superseded',
      connector: await findConnector(deps.db.sql, workspaceId, state.connector_id),
    };
  deps.resourceWatch.changed(connector.id);
  deps.log.info({ connector_id: connector.id, mode: connector.mode, upgraded: upgrading }, 'connector connected');
  return { ok: true, connector };
}

/** A first consent that ended without a connection: the connector fails with the reason. */
async function failFlow(
  deps: Deps,
  current: ConnectorRow,
  reason: CallbackRefusal,
  status: 400 | 502,
): Promise<CallbackOutcome> {
  const { workspace_id: workspaceId, id } = current;
  const connector = await deps.db.sql.begin(async (tx) => {
    const failed = await markFailed(
      tx,
      workspaceId,
      id,
      current.pending_state_hash as string,
      reason,
      deps.clock.now(),
    );
    if (failed)
      await recordEvent(
        deps,
        tx,
        workspaceId,
        { type: 'system', id: null },
        'connector.failed',
        connectorEventData(failed),
      );
    return failed;
  });
  if (connector) deps.resourceWatch.changed(connector.id);
  deps.log.info({ connector_id: id, reason }, 'connector consent refused');
  return { ok: false, status, reason, connector };
}

/** A consent to add capabilities that ended without them: the connector stays connected as it was. */
async function keepAsItWas(
  deps: Deps,
  current: ConnectorRow,
  reason: CallbackRefusal,
  status: 400 | 502,
): Promise<CallbackOutcome> {
  const { workspace_id: workspaceId, id } = current;
  const kept = await dropUpgradeConsent(
    deps.db.sql,
    workspaceId,
    id,
    current.pending_state_hash as string,
    deps.clock.now(),
  );
  if (kept) deps.resourceWatch.changed(id);
  deps.log.info({ connector_id: id, reason }, 'connector capabilities not added');
  return { ok: false, status, reason, connector: kept ?? current };
}

/** What the callback page says for each outcome, in words a person acts on. */
export const refusalText: Record<CallbackRefusal, { title: string; body: string }> = {
  state_missing: {
    title: 'This link is incomplete',
    body: 'The page was opened without the information the sign-in provider adds. Start the connection again from your agent or the admin panel.',
  },
  state_unknown: {
    title: 'This link was not issued here',
    body: 'The sign-in response does not belong to any connection this service started. Start the connection again.',
  },
  state_used: {
    title: 'This link was already used',
    body: 'Each consent link works once. If the connection did not complete, start it again for a fresh link.',
  },
  state_expired: {
    title: 'This link has expired',
    body: 'Consent links are valid for 10 minutes. Ask your agent (or use the admin panel) to start the connection again.',
  },
  state_superseded: {
    title: 'This link is no longer current',
    body: 'A newer consent link was issued for this connection, or it is no longer waiting for consent. Use the newest link.',
  },
  consent_denied: {
    title: 'Access was not allowed',
    body: 'You declined the request, so nothing was connected. To connect later, start again and choose Allow.',
  },
  provider_error: {
    title: 'The sign-in provider reported an error',
    body: 'Nothing was connected. Start the connection again; if it keeps failing, check the OAuth client configuration.',
  },
  code_missing: {
    title: 'The sign-in response was incomplete',
    body: 'No authorization code came back, so nothing was connected. Start the connection again.',
  },
  token_exchange_failed: {
    title: 'The connection could not be completed',
    body: 'The provider did not accept the authorization code. Nothing was stored. Start the connection again.',
  },
  scope_missing: {
    title: 'Permission to send email was not granted',
    body: 'The connector needs permission to send email and to read your address. Nothing was kept. Start again and leave both permissions ticked.',
  },
  userinfo_failed: {
    title: 'The account could not be identified',
    body: 'The provider did not tell us the account address, so nothing was kept. Start the connection again.',
  },
  account_mismatch: {
    title: 'A different account was chosen',
    body: 'The permissions were given by another account than the one this connector uses, so nothing changed. Start again and choose the same account.',
  },
};

/** The page the human's browser lands on after consent: what happened, and what to do next. */
export async function handle(input: OauthCallbackInput, ctx: HandlerContext): Promise<OauthCallbackOutput> {
  const { state, code, error } = input.query;
  const outcome = await oauthCallback(ctx.deps, { state, code, error });
  const sandbox = (outcome.connector?.mode ?? ctx.deps.connectors.gmail.mode) === 'sandbox';
  // The workspace the connector belongs to heads the page, once the state has told us which it is.
  const workspace = outcome.connector && (await findWorkspace(ctx.deps.db.sql, outcome.connector.workspace_id));
  const brand = workspace ? workspace.name : null;
  if (outcome.ok) {
    const { connector } = outcome;
    const label = providerFor(connector.provider)?.label ?? connector.provider;
    const body = `<p>${escapeHtml(label)} is connected as <strong>${escapeHtml(connector.account_email ?? '')}</strong>${sandbox ? ' (sandbox mode)' : ''}.</p>
<p>You can close this tab and go back to your agent: it will see the connection within seconds.</p>
<p>Connector: <code>${escapeHtml(connector.id)}</code></p>`;
    return { status: 200, body: renderPage({ title: 'Connected', body, sandbox, brand }) };
  }
  const text = refusalText[outcome.reason];
  const body = `<p>${escapeHtml(text.body)}</p>${outcome.connector ? `<p>Connector: <code>${escapeHtml(outcome.connector.id)}</code></p>` : ''}<p>Reason code: <code>${escapeHtml(outcome.reason)}</code></p>`;
  const status = outcome.reason === 'consent_denied' ? 200 : outcome.status;
  return { status, body: renderPage({ title: text.title, body, sandbox, brand }) };
}
