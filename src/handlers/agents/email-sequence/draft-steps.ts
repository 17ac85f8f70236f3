// The middle of the run: find the knowledge relevant to the goal and audience, write the draft (the model
// writer when one is configured, else, or when it fails or its draft does not pass the checks, the
// grounded templates, saying so on the run), and check it.
import { readySourceIds } from '../../knowledge/knowledge-data.ts';
import { relevantChunks } from '../../knowledge/knowledge-chunks-data.ts';
import { ApiError } from '../../../errors.ts';
import type { AgentStep, StepContext } from '../agent-definition.ts';
import { attemptModel, type ModelAttempt } from '../model-attempt.ts';
import { writeWithModel, type DraftStep, type WriterBrief, type WriterPassage } from '../model-writer.ts';
import { checkDraft } from './draft-check.ts';
import type { DraftProblem } from './draft-problem.ts';
import type { EmailSequenceInput } from './input.ts';
import { keywords } from './keywords.ts';
import { briefProblems } from './knowledge-check.ts';
import { writeWithTemplates } from './template-writer.ts';

const PASSAGES = 8;
export const VARIABLES = ['first_name', 'last_name', 'company', 'title'];

export const retrieveStep: AgentStep<EmailSequenceInput> = {
  name: 'retrieve_knowledge',
  async run(ctx) {
    const { deps, actor, input } = ctx;
    const sql = deps.db.sql;
    const sourceIds = input.knowledge_source_ids ?? (await readySourceIds(sql, actor.workspaceId)).map((s) => s.id);
    const terms = keywords(`${input.goal} ${input.audience}`);
    const hits =
      sourceIds.length && terms.length
        ? await relevantChunks(sql, actor.workspaceId, { terms, sourceIds, limit: PASSAGES })
        : [];
    if (!hits.length) {
      throw new ApiError(
        'no_knowledge',
        `The workspace's knowledge has nothing about "${input.goal}" for ${input.audience}. Ingest the brand's site with ingest_url_into_knowledge (and wait for it), or change the goal, then run the agent again.`,
      );
    }
    const passages: WriterPassage[] = hits.map((h) => ({
      chunk_id: h.id,
      url: h.page_url,
      title: h.page_title,
      text: h.text,
    }));
    // Checked before any writer runs: a draft from a brief the knowledge is not about would be grounded
    // sentence by sentence and still wrong (another brand's offer in every call to action).
    const [offBrief] = briefProblems(briefOf({ ...ctx, state: { passages } }));
    if (offBrief) throw new ApiError('no_knowledge', `${offBrief.message} Then run the agent again.`);
    return { done: true, state: { passages } };
  },
};

function briefOf(ctx: StepContext<EmailSequenceInput>): WriterBrief {
  const { input } = ctx;
  return {
    goal: input.goal,
    audience: input.audience,
    tone: input.tone,
    call_to_action: input.call_to_action,
    steps: input.steps,
    passages: ctx.state.passages as WriterPassage[],
    variables: VARIABLES,
  };
}

const problemText = (p: DraftProblem) => `step ${p.step}: ${p.message}`;
const describeProblems = (problems: DraftProblem[]) => problems.slice(0, 3).map(problemText).join('; ');

function writerNote(attempt: ModelAttempt<DraftStep[]>): string {
  if (attempt.kind === 'written') return `Written by the model writer (${attempt.model}).`;
  return attempt.kind === 'fallback'
    ? attempt.note
    : 'Written by the grounded template writer (no model is configured).';
}

export const writeStep: AgentStep<EmailSequenceInput> = {
  name: 'write_draft',
  async run(ctx) {
    const brief = briefOf(ctx);
    const fromModel = await attemptModel(ctx, {
      write: (llm, signal) => writeWithModel(llm, brief, { signal }),
      problems: (steps) => checkDraft(steps, brief).map(problemText),
      noun: 'draft',
      instead: 'it',
    });
    const steps = fromModel.kind === 'written' ? fromModel.result : writeWithTemplates(brief);
    if (!steps.length) {
      throw new ApiError(
        'no_knowledge',
        `The knowledge found has too few whole sentences to write ${brief.steps} emails without repeating one (menus, lists and quotations cut or without a speaker are left out). Ask for fewer steps, or ingest pages with prose about the product, then run the agent again.`,
      );
    }
    const problems = checkDraft(steps, brief);
    if (problems.length) {
      throw new ApiError('draft_check_failed', `The draft did not pass its checks: ${describeProblems(problems)}.`, {
        errors: problems.map((p) => ({
          pointer: p.step ? `/steps/${p.step - 1}` : '/steps',
          code: p.code,
          message: p.message,
        })),
      });
    }
    return {
      done: true,
      state: { draft: steps, writer: fromModel.kind === 'written' ? 'model' : 'template' },
      notes: [writerNote(fromModel)],
    };
  },
};
