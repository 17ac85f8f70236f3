// The gmail provider: Google's OAuth with offline access (a refresh token), the gmail.send scope, and
// the account's address from userinfo; the connected account is a mailbox (../google/gmail-mailbox.ts).
import { ApiError } from '../../../errors.ts';
import { authorizationUrl, exchangeCode, fetchUserinfo, ProviderError, revokeToken } from '../google/google-client.ts';
import {
  GMAIL_REQUIRED_SCOPES,
  GMAIL_SCOPES,
  gmailScopesFor,
  type GmailCapability,
} from '../google/google-endpoints.ts';
import { gmailMailbox } from '../google/gmail-mailbox.ts';
import type { ConnectorProvider, Grant } from './provider.ts';

export const gmailProvider: ConnectorProvider = {
  label: 'Gmail',
  mode: (deps) => deps.connectors.gmail.mode,
  scopes: GMAIL_SCOPES,
  scopesFor: (capabilities) => gmailScopesFor(capabilities as GmailCapability[]),
  consentUrl: (deps, request) => authorizationUrl(deps.connectors.gmail, request),

  async exchange(deps, request): Promise<Grant> {
    const { gmail } = deps.connectors;
    let tokens;
    try {
      tokens = await exchangeCode(gmail, request);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      deps.log.warn(
        { connector_id: request.connectorId, kind: error.kind, status: error.status },
        'code exchange failed',
      );
      return { ok: false, reason: 'token_exchange_failed', status: 502 };
    }
    // A grant we cannot use is given back at once rather than left behind at the provider.
    const giveBack = () =>
      revokeToken(gmail, tokens.refreshToken ?? tokens.accessToken).catch((e: unknown) =>
        deps.log.warn({ err: (e as Error).message }, 'could not revoke an unusable grant'),
      );
    const granted = tokens.scopes.map((s) => (s === 'https://www.googleapis.com/auth/userinfo.email' ? 'email' : s));
    if (!GMAIL_REQUIRED_SCOPES.every((scope) => granted.includes(scope))) {
      await giveBack();
      return { ok: false, reason: 'scope_missing', status: 400 };
    }
    if (!tokens.refreshToken) {
      await giveBack();
      return { ok: false, reason: 'token_exchange_failed', status: 502 };
    }
    let account: { email: string };
    try {
      account = await fetchUserinfo(gmail, tokens.accessToken);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      await giveBack();
      return { ok: false, reason: 'userinfo_failed', status: 502 };
    }
    return {
      ok: true,
      tokens: { access_token: tokens.accessToken, refresh_token: tokens.refreshToken },
      expiresIn: tokens.expiresIn,
      scopesGranted: granted,
      account: account.email,
    };
  },

  async revoke(deps, tokens) {
    try {
      await revokeToken(deps.connectors.gmail, tokens.refresh_token);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw new ApiError(
        'provider_unavailable',
        `The provider did not confirm the revocation (${error.message}); the connector is unchanged, try again.`,
      );
    }
  },

  mailbox: gmailMailbox,
};
