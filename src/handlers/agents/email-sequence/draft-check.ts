// What a draft must pass before it becomes a sequence, whichever writer wrote it: templates that parse with
// known variables, each with a fallback (a lead lacking a value would otherwise be skipped); no leftover
// placeholders; subjects and bodies within limits; no unsubscribe text of its own (the footer adds one);
// and nothing from outside the workspace's knowledge: every link and every figure must appear in the
// passages the writer was given (or in the brief itself), a quotation appears whole and attributed or not at
// all, no sentence is used twice, and the brief is about what the passages say (knowledge-check.ts).
import { parseVariables } from '../../sequences/template.ts';
import type { DraftStep, WriterBrief } from '../model-writer.ts';
import type { DraftProblem } from './draft-problem.ts';
import { knowledgeProblems } from './knowledge-check.ts';

export const SUBJECT_MAX = 150;
export const BODY_MAX = 5000;
const PLACEHOLDER = /\[(?:[A-Z][A-Za-z ]{1,30}|insert[^\]]*|your [^\]]*)\]|\b(?:TODO|TBD|lorem ipsum)\b/i;
const URL = /\bhttps?:\/\/[^\s)>\]]+/gi;
const FIGURE = /\d[\d,.]*\s?%?/g;

function templateProblems(step: number, field: string, text: string): DraftProblem[] {
  const parsed = parseVariables(text);
  const problems = parsed.problems.map((p) => ({
    step,
    code: 'unresolved_variable',
    message: `${field}: ${p.message}`,
  }));
  for (const v of parsed.variables) {
    if (v.fallback === null)
      problems.push({
        step,
        code: 'variable_without_fallback',
        message: `${field}: {{${v.name}}} has no fallback such as {{${v.name} | "…"}}.`,
      });
  }
  return problems;
}

function groundingProblems(step: number, text: string, known: string): DraftProblem[] {
  const problems: DraftProblem[] = [];
  const withoutVariables = text.replace(/\{\{[^}]*\}\}/g, ' ');
  for (const url of withoutVariables.match(URL) ?? []) {
    if (!known.includes(url.replace(/[.,;:!?]+$/, '').toLowerCase()))
      problems.push({ step, code: 'ungrounded_link', message: `The link ${url} is not in the workspace's knowledge.` });
  }
  for (const raw of withoutVariables.replace(URL, ' ').match(FIGURE) ?? []) {
    const figure = raw.trim().replace(/[.,]+$/, '');
    if (/^\d$/.test(figure)) continue;
    if (!known.includes(figure.toLowerCase()))
      problems.push({
        step,
        code: 'ungrounded_figure',
        message: `The figure "${figure}" is not in the workspace's knowledge.`,
      });
  }
  return problems;
}

export function checkDraft(steps: DraftStep[], brief: WriterBrief): DraftProblem[] {
  if (steps.length !== brief.steps)
    return [
      { step: 0, code: 'step_count', message: `The draft has ${steps.length} steps; ${brief.steps} were asked for.` },
    ];
  const known = [
    brief.goal,
    brief.audience,
    brief.call_to_action,
    ...brief.passages.map((p) => `${p.text} ${p.url} ${p.title ?? ''}`),
  ]
    .join('\n')
    .toLowerCase();
  const chunkIds = new Set(brief.passages.map((p) => p.chunk_id));
  const perStep = steps.flatMap((s, i) => {
    const n = i + 1;
    const problems = [...templateProblems(n, 'subject', s.subject), ...templateProblems(n, 'body', s.body)];
    if (!s.subject.trim() || s.subject.length > SUBJECT_MAX)
      problems.push({
        step: n,
        code: 'subject_length',
        message: `The subject must have 1 to ${SUBJECT_MAX} characters.`,
      });
    if (s.body.trim().length < 20 || s.body.length > BODY_MAX)
      problems.push({ step: n, code: 'body_length', message: `The body must have 20 to ${BODY_MAX} characters.` });
    if (PLACEHOLDER.test(`${s.subject}\n${s.body}`))
      problems.push({
        step: n,
        code: 'placeholder',
        message: 'The step still holds a placeholder such as [Name] or TODO.',
      });
    if (/unsubscribe/i.test(s.body))
      problems.push({
        step: n,
        code: 'own_footer',
        message: 'The body has its own unsubscribe text; the platform adds the footer.',
      });
    if (!s.source_chunk_ids.length || s.source_chunk_ids.some((id) => !chunkIds.has(id)))
      problems.push({
        step: n,
        code: 'ungrounded_step',
        message: 'The step cites no passage of the knowledge it was given.',
      });
    return [...problems, ...groundingProblems(n, `${s.subject}\n${s.body}`, known)];
  });
  return [...perStep, ...knowledgeProblems(steps, brief)];
}
