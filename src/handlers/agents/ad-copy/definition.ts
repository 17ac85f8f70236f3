// The store's ad-copy-writer: from the workspace's knowledge, the creatives of a draft ad campaign, or
// (with a goal alone) creatives returned as the run's output for create_ad_campaign.
import type { AgentDefinition } from '../agent-definition.ts';
import { ApiError } from '../../../errors.ts';
import { requireCampaign } from '../../ads/campaign-records.ts';
import { adCopyInput, type AdCopyInput } from './input.ts';
import { applyStep, retrieveStep, writeStep } from './steps.ts';

export const adCopyWriter: AgentDefinition<AdCopyInput> = {
  slug: 'ad-copy-writer',
  name: 'Ad copy writer',
  description:
    "Writes ad creatives from the workspace's ingested knowledge: headlines (40 characters), primary texts (125) and descriptions (30) within Meta's limits, each linking to the knowledge page it drew on. With campaign_id they replace a draft's creatives; with a goal alone they are the run's output.creatives, ready for create_ad_campaign.",
  category: 'ads',
  version: '1.1.0',
  input: adCopyInput,
  produces: ['ad_campaign'],
  requiredConnectors: [],
  async precheck(deps, actor, input) {
    if ((input.campaign_id === undefined) === (input.goal === undefined)) {
      throw new ApiError(
        'validation_failed',
        "Give exactly one of campaign_id (write a draft's creatives; its name is the goal) or goal (creatives returned in the run's output, for create_ad_campaign).",
        {
          errors: [
            {
              field: input.campaign_id ? 'goal' : 'campaign_id',
              code: 'exactly_one',
              message: 'exactly one of campaign_id and goal',
            },
          ],
        },
      );
    }
    if (!input.campaign_id) return;
    const campaign = await requireCampaign(deps.db.sql, actor.workspaceId, input.campaign_id);
    if (campaign.status !== 'draft')
      throw new ApiError(
        'ad_campaign_state_conflict',
        `Only a draft's creatives can be written; campaign ${campaign.id} is ${campaign.status}.`,
      );
  },
  steps: [retrieveStep, writeStep, applyStep],
};
