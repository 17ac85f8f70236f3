// The store's ad-copy-writer: from the workspace's knowledge, the creatives of a draft ad campaign.
import type { AgentDefinition } from '../agent-definition.ts';
import { ApiError } from '../../errors.ts';
import { requireCampaign } from '../../operations/ads/campaigns.ts';
import { adCopyInput, type AdCopyInput } from './input.ts';
import { applyStep, retrieveStep, writeStep } from './steps.ts';

export const adCopyWriter: AgentDefinition<AdCopyInput> = {
  slug: 'ad-copy-writer',
  name: 'Ad copy writer',
  description:
    "Writes a draft ad campaign's creatives from the workspace's ingested knowledge: headlines (40 characters), primary texts (125) and descriptions (30) within Meta's limits, each linking to the knowledge page it drew on. Review them with get_ad_campaign, then launch_ad_campaign.",
  category: 'ads',
  version: '1.0.0',
  input: adCopyInput,
  produces: ['ad_campaign'],
  requiredConnectors: [],
  async precheck(deps, actor, input) {
    const campaign = await requireCampaign(deps.db.sql, actor.workspaceId, input.campaign_id);
    if (campaign.status !== 'draft') throw new ApiError('ad_campaign_state_conflict', `Only a draft's creatives can be written; campaign ${campaign.id} is ${campaign.status}.`);
  },
  steps: [retrieveStep, writeStep, applyStep],
};
