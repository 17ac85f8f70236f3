// Calls to the ads platform on a campaign's behalf: the connector's token, and what each failure means
// here. An expired or revoked token (OAuthException 190) ends the connection (`connector.expired`) and
// marks the campaign `needs_reconnection`; a rate limit is `rate_limited` (try again later); anything
// else the platform refused is reported with its message.
import { changeAdCampaign, type AdCampaignRow, type AdCampaignStatus } from './ad-campaigns-data.ts';
import { findConnector, type ConnectorRow } from '../connectors/connectors-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { GraphError, graphPost } from '../connectors/meta/graph-client.ts';
import { expireConnector, notConnected, openTokens } from '../connectors/tokens.ts';
import { recordEvent } from '../events/record-event.ts';
import { adCampaignEventData } from './wire.ts';

export const NEEDS_RECONNECTION = 'needs_reconnection';
const ANY: AdCampaignStatus[] = [
  'draft',
  'launching',
  'pending_review',
  'active',
  'disapproved',
  'paused',
  'completed',
];

/** The connected meta_ads connector of a campaign, or the 409 that says how to reconnect it. */
export async function campaignConnector(deps: Deps, campaign: AdCampaignRow): Promise<ConnectorRow> {
  const connector = await findConnector(deps.db.sql, campaign.workspace_id, campaign.connector_id);
  if (!connector)
    throw new ApiError(
      'connector_not_connected',
      `The campaign's connector ${campaign.connector_id} no longer exists: connect an ads account with start_connector_oauth {provider: "meta_ads"}.`,
    );
  if (connector.status !== 'connected') throw notConnected(connector);
  // Meta's user tokens are not refreshed: past their expiry the human reconnects.
  if (connector.access_expires_at && connector.access_expires_at.getTime() <= deps.clock.now().getTime())
    throw await expireConnector(deps, connector, 'token_expired');
  return connector;
}

export interface PlatformSession {
  connector: ConnectorRow;
  token: string;
  /** Runs a Graph call, turning its failure into what it means for this campaign. */
  call<T>(fn: (token: string) => Promise<T>): Promise<T>;
}

export async function platformSession(deps: Deps, campaign: AdCampaignRow): Promise<PlatformSession> {
  let connector: ConnectorRow;
  try {
    connector = await campaignConnector(deps, campaign);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'connector_not_connected')
      await markCampaign(deps, campaign, NEEDS_RECONNECTION);
    throw error;
  }
  const token = openTokens(deps, connector).access_token;
  return {
    connector,
    token,
    async call(fn) {
      try {
        return await fn(token);
      } catch (error) {
        if (!(error instanceof GraphError)) throw error;
        throw await meaningOf(deps, campaign, connector, error);
      }
    },
  };
}

async function meaningOf(
  deps: Deps,
  campaign: AdCampaignRow,
  connector: ConnectorRow,
  error: GraphError,
): Promise<ApiError> {
  if (error.kind === 'token_expired') {
    const refused = await expireConnector(deps, connector, 'token_expired');
    await markCampaign(deps, campaign, NEEDS_RECONNECTION);
    return refused;
  }
  if (error.kind === 'rate_limited') {
    await markCampaign(deps, campaign, 'rate_limited');
    return new ApiError(
      'provider_unavailable',
      `The ads platform's rate limit was reached (${error.message}); try again in a few minutes.`,
    );
  }
  if (error.kind === 'unavailable')
    return new ApiError(
      'provider_unavailable',
      `The ads platform did not answer: ${error.message}. Nothing changed here; try again.`,
    );
  return new ApiError('provider_unavailable', `The ads platform refused the request: ${error.message}.`);
}

/** Records why a campaign waits (needs_reconnection, rate_limited) without moving its status. */
export async function markCampaign(deps: Deps, campaign: AdCampaignRow, reason: string): Promise<void> {
  const row = await deps.db.sql.begin(async (tx) => {
    const changed = await changeAdCampaign(
      tx,
      campaign.workspace_id,
      campaign.id,
      ANY,
      { statusReason: reason },
      deps.clock.now(),
    );
    if (changed && reason === NEEDS_RECONNECTION && campaign.status_reason !== NEEDS_RECONNECTION)
      await recordEvent(
        deps,
        tx,
        campaign.workspace_id,
        { type: 'system', id: null },
        'ad_campaign.needs_reconnection',
        adCampaignEventData(changed),
      );
    return changed;
  });
  if (row) deps.resourceWatch.changed(row.id);
}

/** Tells the platform a launched campaign's new status (its campaign object; the ad set and ads follow it). */
export async function setPlatformStatus(
  deps: Deps,
  c: AdCampaignRow,
  status: 'ACTIVE' | 'PAUSED' | 'ARCHIVED',
): Promise<void> {
  const session = await platformSession(deps, c);
  await session.call((token) => graphPost(deps.connectors.meta, token, c.platform_ids.campaign, { status }));
}
