// The meta_ads provider: Facebook Login with PKCE for the ads_management and ads_read permissions. Meta
// issues a long-lived user token (about 60 days) and no refresh token, so the connector expires with its
// token and the human reconnects. The connector's account is the first ad account (`act_…`) it may manage.
import { ApiError } from '../../../errors.ts';
import {
  exchangeMetaCode,
  firstAdAccount,
  GraphError,
  graphGet,
  META_ADS_SCOPES,
  metaAuthorizationUrl,
  revokeMetaGrant,
} from '../meta/graph-client.ts';
import type { ConnectorProvider, Grant } from './provider.ts';

export const metaAdsProvider: ConnectorProvider = {
  label: 'Meta Ads',
  mode: (deps) => deps.connectors.meta.mode,
  scopes: META_ADS_SCOPES,
  consentUrl: (deps, request) => metaAuthorizationUrl(deps.connectors.meta, request),

  async exchange(deps, request): Promise<Grant> {
    const { meta } = deps.connectors;
    let token;
    try {
      token = await exchangeMetaCode(meta, request);
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      deps.log.warn(
        { connector_id: request.connectorId, kind: error.kind, status: error.status },
        'code exchange failed',
      );
      return { ok: false, reason: 'token_exchange_failed', status: 502 };
    }
    const giveBack = () =>
      revokeMetaGrant(meta, token.accessToken).catch((e: unknown) =>
        deps.log.warn({ err: (e as Error).message }, 'could not revoke an unusable grant'),
      );
    try {
      const permissions = await graphGet(meta, token.accessToken, 'me/permissions');
      const granted = (Array.isArray(permissions.data) ? permissions.data : [])
        .filter((p: { status?: unknown }) => p.status === 'granted')
        .map((p: { permission?: unknown }) => String(p.permission));
      if (!META_ADS_SCOPES.every((s) => granted.includes(s))) {
        await giveBack();
        return { ok: false, reason: 'scope_missing', status: 400 };
      }
      const account = await firstAdAccount(meta, token.accessToken);
      return {
        ok: true,
        tokens: { access_token: token.accessToken, refresh_token: '' },
        expiresIn: token.expiresIn,
        scopesGranted: granted,
        account,
      };
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      await giveBack();
      return { ok: false, reason: 'userinfo_failed', status: 502 };
    }
  },

  async revoke(deps, tokens) {
    try {
      await revokeMetaGrant(deps.connectors.meta, tokens.access_token);
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      throw new ApiError(
        'provider_unavailable',
        `The ads platform did not confirm the revocation (${error.message}); the connector is unchanged, try again.`,
      );
    }
  },
};
