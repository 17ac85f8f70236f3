// The ad-copy-writer's steps: find the knowledge relevant to the goal, write the creatives (the model writer
// when one is configured and its creatives pass, else the grounded templates; checked against Meta's limits
// and the knowledge's links), and put them on the draft, or (a goal alone) into the run's output
// as `creatives` (ready for create_ad_campaign) with `sources`, the knowledge each one drew on.
import { readySourceIds } from '../../knowledge/knowledge-data.ts';
import { relevantChunks } from '../../knowledge/knowledge-chunks-data.ts';
import { ApiError } from '../../../errors.ts';
import { requireCampaign } from '../../ads/campaign-records.ts';
import { updateAdCampaign } from '../../ads/update-ad-campaign.ts';
import type { AgentStep } from '../agent-definition.ts';
import { attemptModel } from '../model-attempt.ts';
import { keywords } from '../email-sequence/keywords.ts';
import type { WriterPassage } from '../model-writer.ts';
import { creativeProblems, writeAdCopy, type WrittenCreative } from './copy-writer.ts';
import type { AdCopyInput } from './input.ts';
import { writeAdCopyWithModel, type AdBrief } from './model-writer.ts';

const PASSAGES = 8;
const campaignRef = (id: string) => ({ type: 'ad_campaign', id });

export const retrieveStep: AgentStep<AdCopyInput> = {
  name: 'retrieve_knowledge',
  async run({ deps, actor, input }) {
    const sql = deps.db.sql;
    const goal = input.campaign_id
      ? (await requireCampaign(sql, actor.workspaceId, input.campaign_id)).name
      : (input.goal as string);
    const sourceIds = input.knowledge_source_ids ?? (await readySourceIds(sql, actor.workspaceId)).map((s) => s.id);
    const terms = keywords(goal);
    const hits =
      sourceIds.length && terms.length
        ? await relevantChunks(sql, actor.workspaceId, { terms, sourceIds, limit: PASSAGES })
        : [];
    if (!hits.length) {
      throw new ApiError(
        'no_knowledge',
        `The workspace's knowledge has nothing about "${goal}". Ingest the brand's site with ingest_url_into_knowledge (and wait for it), or pass a goal, then run again.`,
      );
    }
    const passages: WriterPassage[] = hits.map((h) => ({
      chunk_id: h.id,
      url: h.page_url,
      title: h.page_title,
      text: h.text,
    }));
    return { done: true, state: { passages, goal } };
  },
};

const creativesProblems = (creatives: WrittenCreative[], passages: WriterPassage[]) => {
  const urls = new Set(passages.map((p) => p.url));
  return creatives.flatMap((c, i) => creativeProblems(c, urls).map((p) => `creative ${i + 1}: ${p}`));
};

const wrote = (n: number, writer: string) => `Wrote ${n} creative${n === 1 ? '' : 's'} with the ${writer}`;

export const writeStep: AgentStep<AdCopyInput> = {
  name: 'write_creatives',
  async run(ctx) {
    const { input, state } = ctx;
    const passages = state.passages as WriterPassage[];
    const brief: AdBrief = {
      goal: state.goal as string,
      count: input.count,
      passages,
      callToAction: input.call_to_action,
    };
    const fromModel = await attemptModel(ctx, {
      write: (llm, signal) => writeAdCopyWithModel(llm, brief, { signal }),
      problems: (creatives) => creativesProblems(creatives, passages),
      noun: 'creatives',
      instead: 'the creatives',
    });
    if (fromModel.kind === 'written')
      return {
        done: true,
        state: { creatives: fromModel.result, writer: 'model' },
        notes: [`${wrote(fromModel.result.length, `model writer (${fromModel.model})`)}.`],
      };
    const creatives = writeAdCopy(brief);
    if (!creatives.length)
      throw new ApiError(
        'no_knowledge',
        'The knowledge found has no sentence short enough for an ad (125 characters). Ingest pages with short, plain statements about the product, then run again.',
      );
    const problems = creativesProblems(creatives, passages);
    if (problems.length)
      throw new ApiError(
        'draft_check_failed',
        `The creatives did not pass their checks: ${problems.slice(0, 3).join('; ')}.`,
      );
    const note = `${wrote(creatives.length, 'grounded template writer')}, from ${new Set(creatives.flatMap((c) => c.source_chunk_ids)).size} knowledge passages.`;
    return {
      done: true,
      state: { creatives, writer: 'template' },
      notes: [...(fromModel.kind === 'fallback' ? [fromModel.note] : []), note],
    };
  },
};

export const applyStep: AgentStep<AdCopyInput> = {
  name: 'update_campaign',
  async run({ deps, actor, input, state }) {
    const written = state.creatives as WrittenCreative[];
    const creatives = written.map(({ source_chunk_ids: _sources, ...c }) => c);
    if (!input.campaign_id) {
      const passages = state.passages as WriterPassage[];
      const sources = written.map((c, i) => ({
        creative: i,
        chunk_ids: c.source_chunk_ids,
        urls: [
          ...new Set(c.source_chunk_ids.map((id) => passages.find((p) => p.chunk_id === id)?.url).filter(Boolean)),
        ],
      }));
      return { done: true, output: { creatives, sources } };
    }
    await updateAdCampaign(deps, actor, input.campaign_id, { creatives });
    return { done: true, resources: [campaignRef(input.campaign_id)] };
  },
};
