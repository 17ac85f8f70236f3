// The ad-copy-writer's steps: check the campaign is a draft, find the knowledge relevant to the goal, write
// the creatives (checked against Meta's limits and the knowledge's links), and put them on the draft.
import { readySourceIds, relevantChunks } from '../../data/knowledge.ts';
import { ApiError } from '../../errors.ts';
import { requireCampaign } from '../../operations/ads/campaigns.ts';
import { updateAdCampaign } from '../../operations/ads/campaigns.ts';
import type { AgentStep } from '../agent-definition.ts';
import { keywords } from '../email-sequence/keywords.ts';
import type { WriterPassage } from '../model-writer.ts';
import { creativeProblems, writeAdCopy, type WrittenCreative } from './copy-writer.ts';
import type { AdCopyInput } from './input.ts';

const PASSAGES = 8;
const campaignRef = (id: string) => ({ type: 'ad_campaign', id });

export const retrieveStep: AgentStep<AdCopyInput> = {
  name: 'retrieve_knowledge',
  async run({ deps, actor, input }) {
    const sql = deps.db.sql;
    const campaign = await requireCampaign(sql, actor.workspaceId, input.campaign_id);
    const goal = input.goal ?? campaign.name;
    const sourceIds = input.knowledge_source_ids ?? (await readySourceIds(sql, actor.workspaceId)).map((s) => s.id);
    const terms = keywords(goal);
    const hits = sourceIds.length && terms.length ? await relevantChunks(sql, actor.workspaceId, { terms, sourceIds, limit: PASSAGES }) : [];
    if (!hits.length) {
      throw new ApiError('no_knowledge', `The workspace's knowledge has nothing about "${goal}". Ingest the brand's site with ingest_url_into_knowledge (and wait for it), or pass a goal, then run again.`);
    }
    const passages: WriterPassage[] = hits.map((h) => ({ chunk_id: h.id, url: h.page_url, title: h.page_title, text: h.text }));
    return { done: true, state: { passages, goal } };
  },
};

export const writeStep: AgentStep<AdCopyInput> = {
  name: 'write_creatives',
  async run({ input, state }) {
    const passages = state.passages as WriterPassage[];
    const creatives = writeAdCopy({ goal: state.goal as string, count: input.count, passages });
    if (!creatives.length) throw new ApiError('no_knowledge', 'The knowledge found has no sentence short enough for an ad (125 characters). Ingest pages with short, plain statements about the product, then run again.');
    const urls = new Set(passages.map((p) => p.url));
    const problems = creatives.flatMap((c, i) => creativeProblems(c, urls).map((p) => `creative ${i + 1}: ${p}`));
    if (problems.length) throw new ApiError('draft_check_failed', `The creatives did not pass their checks: ${problems.slice(0, 3).join('; ')}.`);
    const note = `Wrote ${creatives.length} creative${creatives.length === 1 ? '' : 's'} with the grounded template writer, from ${new Set(creatives.flatMap((c) => c.source_chunk_ids)).size} knowledge passages.`;
    return { done: true, state: { creatives }, notes: [note] };
  },
};

export const applyStep: AgentStep<AdCopyInput> = {
  name: 'update_campaign',
  async run({ deps, actor, input, state }) {
    const creatives = (state.creatives as WrittenCreative[]).map(({ source_chunk_ids: _sources, ...c }) => c);
    await updateAdCampaign(deps, actor, input.campaign_id, { creatives });
    return { done: true, resources: [campaignRef(input.campaign_id)] };
  },
};
