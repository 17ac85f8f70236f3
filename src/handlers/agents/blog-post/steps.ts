// The blog-post-writer's steps: find the knowledge the topic is about, write the post from it (the model
// writer when one is configured and its post passes the checks, else the grounded templates, saying which
// on the run), check it, and save it as a draft (with the chunks it drew on) in the same
// transaction as the run's checkpoint, so a retried step never creates a second post.
import { readySourceIds } from '../../knowledge/knowledge-data.ts';
import { relevantChunks } from '../../knowledge/knowledge-chunks-data.ts';
import { ApiError } from '../../../errors.ts';
import { insertPostRecorded } from '../../blogs/post-records.ts';
import type { AgentStep } from '../agent-definition.ts';
import { attemptModel, type ModelAttempt } from '../model-attempt.ts';
import { checkPost } from './check.ts';
import { writeBlogPostWithModel } from './model-writer.ts';
import { SECTIONS, type BlogPostInput } from './input.ts';
import { briefTerms, writeBlogPost, type BlogDraft, type BlogPassage } from './writer.ts';

const postRef = (id: string) => ({ type: 'blog_post', id });

export const retrieveStep: AgentStep<BlogPostInput> = {
  name: 'retrieve_knowledge',
  async run({ deps, actor, input }) {
    const sql = deps.db.sql;
    const sourceIds = input.knowledge_source_ids ?? (await readySourceIds(sql, actor.workspaceId)).map((s) => s.id);
    const terms = briefTerms(input);
    const hits =
      sourceIds.length && terms.length
        ? await relevantChunks(sql, actor.workspaceId, { terms, sourceIds, limit: SECTIONS[input.length] * 3 })
        : [];
    if (!hits.length) {
      throw new ApiError(
        'no_knowledge',
        `The workspace's knowledge has nothing about "${input.topic}". Ingest the brand's site with ingest_url_into_knowledge (and wait for it), or change the topic, then generate again.`,
      );
    }
    const passages: BlogPassage[] = hits.map((h) => ({
      chunk_id: h.id,
      url: h.page_url,
      title: h.page_title,
      heading: h.heading_path.at(-1) ?? null,
      text: h.text,
    }));
    return { done: true, state: { passages } };
  },
};

function writerNote(attempt: ModelAttempt<BlogDraft>): string {
  if (attempt.kind === 'written')
    return `Written by the model writer (${attempt.model}); each section cites the pages it drew on.`;
  return attempt.kind === 'fallback'
    ? attempt.note
    : 'Written by the grounded template writer (no model is configured): every sentence is from the knowledge, each section cites its page.';
}

export const writeStep: AgentStep<BlogPostInput> = {
  name: 'write_post',
  async run(ctx) {
    const { input } = ctx;
    const passages = ctx.state.passages as BlogPassage[];
    const fromModel = await attemptModel(ctx, {
      write: (llm, signal) => writeBlogPostWithModel(llm, input, passages, { signal }),
      problems: (post) => checkPost(post, input, passages).map((p) => p.message),
      noun: 'post',
      instead: 'it',
    });
    const draft = fromModel.kind === 'written' ? fromModel.result : writeBlogPost(input, passages);
    if (!draft)
      throw new ApiError(
        'no_knowledge',
        'The knowledge found has no sentences to write from (only fragments such as menus or lists). Ingest pages with prose about the topic, then generate again.',
      );
    const notes = [writerNote(fromModel)];
    if (draft.outline.length < SECTIONS[input.length])
      notes.push(
        `The knowledge had material for ${draft.outline.length} of the ${SECTIONS[input.length]} sections a ${input.length} post has.`,
      );
    return { done: true, state: { draft, writer: fromModel.kind === 'written' ? 'model' : 'template' }, notes };
  },
};

export const checkStep: AgentStep<BlogPostInput> = {
  name: 'check_post',
  async run({ input, state }) {
    const problems = checkPost(state.draft as BlogDraft, input, state.passages as BlogPassage[]);
    if (problems.length) {
      throw new ApiError(
        'draft_check_failed',
        `The post did not pass its checks: ${problems
          .slice(0, 3)
          .map((p) => p.message)
          .join('; ')}`,
        { errors: problems },
      );
    }
    return { done: true };
  },
};

export const createStep: AgentStep<BlogPostInput> = {
  name: 'create_post',
  async run(ctx) {
    const { deps, actor, state } = ctx;
    if (state.post_id) return { done: true, resources: [postRef(state.post_id as string)] };
    const draft = state.draft as BlogDraft;
    const passages = state.passages as BlogPassage[];
    const cited = new Set(draft.outline.flatMap((s) => s.chunk_ids));
    // The introduction's sentence is cited too: it comes from the best passage.
    const sources = passages
      .filter((p, i) => i === 0 || cited.has(p.chunk_id))
      .map((p) => ({ chunk_id: p.chunk_id, url: p.url }));
    const row = await deps.db.sql.begin(async (tx) => {
      const created = await insertPostRecorded(deps, tx, actor, { ...draft, sources, agentRunId: ctx.runId });
      await ctx.save(tx, { post_id: created.id });
      return created;
    });
    return { done: true, state: { post_id: row.id }, resources: [postRef(row.id)] };
  },
};
