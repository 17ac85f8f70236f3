import { insertAdCampaign, type AdCampaignRow } from './ad-campaigns-data.ts';
import type { CreateAdCampaignInput, CreateAdCampaignOutput } from '../../generated/handlers.ts';
import { findConnector } from '../connectors/connectors-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { campaignFields, type AdCampaignInput } from './campaign-input.ts';
import { adCampaignBody, adCampaignEventData } from './wire.ts';

/** A draft on a meta_ads connector of the workspace (connected or not yet: launching needs it connected). */
export async function createAdCampaign(
  deps: Deps,
  actor: Actor,
  input: AdCampaignInput & { connector_id: string },
): Promise<AdCampaignRow> {
  const fields = campaignFields(input);
  const connector = await findConnector(deps.db.sql, actor.workspaceId, input.connector_id);
  if (!connector) throw new ApiError('not_found', `No connector ${input.connector_id} in this workspace.`);
  if (connector.provider !== 'meta_ads') {
    throw new ApiError(
      'validation_failed',
      `Connector ${connector.id} is a ${connector.provider} connector; ads need one made with start_connector_oauth {provider: "meta_ads"}.`,
      {
        errors: [{ field: 'connector_id', code: 'wrong_provider', message: 'a meta_ads connector' }],
      },
    );
  }
  return deps.db.sql.begin(async (tx) => {
    const row = await insertAdCampaign(tx, actor.workspaceId, deps.ids, {
      ...fields,
      connectorId: connector.id,
      mode: connector.mode,
      adAccountId: connector.status === 'connected' ? connector.account_email : null,
      createdBy: actor.userId,
      now: deps.clock.now(),
    });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'ad_campaign.created', adCampaignEventData(row));
    return row;
  });
}

export async function handle(input: CreateAdCampaignInput, ctx: HandlerContext): Promise<CreateAdCampaignOutput> {
  return { status: 201, body: adCampaignBody(await createAdCampaign(ctx.deps, actorFrom(ctx), input.body)) };
}
