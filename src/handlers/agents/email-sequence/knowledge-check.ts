// The draft checks that compare a draft with the knowledge's own words rather than with limits: a quotation
// of the passages appears whole, inside quotation marks, with its speaker's name, or not at all (a sentence
// of it alone reads as the sender's claim); no sentence is used in two steps; and the brief's goal and call
// to action are about what the passages say (a demo's brief run against another site reads as grounded
// otherwise, since every sentence of the draft is the knowledge's).
import { attribution, isQuotation, logicalLines, textUnits } from '../quotations.ts';
import type { DraftStep, WriterBrief, WriterPassage } from '../model-writer.ts';
import type { DraftProblem } from './draft-problem.ts';
import { keywords } from './keywords.ts';

interface KnownQuotation {
  /** The words between the marks, normalised, without the final punctuation. */
  core: string;
  /** Its sentences of 20 characters or more: any one of them shown marks the quotation as used. */
  pieces: string[];
  /** The speaker's name, normalised; null when the passages do not name one or hold only part of it. */
  name: string | null;
}

/** Lower case, one kind of quotation mark, single spaces, no template variables. */
const normal = (text: string) =>
  text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .toLowerCase()
    .replace(/["“”‘’«»']/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
const bare = (text: string) => text.replace(/[\s".,;:!?…—–-]+$/, '').replace(/^[\s".,;:…—–-]+/, '');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const shown = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

function quotationsOf(passages: WriterPassage[]): KnownQuotation[] {
  return passages.flatMap((p) =>
    logicalLines(p.text)
      .flatMap(textUnits)
      .flatMap((unit) =>
        unit.spans.filter(isQuotation).map((span) => {
          const name = span.whole && !unit.broken ? attribution(unit) : null;
          const core = bare(normal(span.inner));
          const pieces = core
            .split(/(?<=[.!?])\s+/)
            .map(bare)
            .filter((piece) => piece.length >= 20);
          return { core, pieces, name: name && normal(name) };
        }),
      ),
  );
}

function quotationProblems(n: number, text: string, quotations: KnownQuotation[]): DraftProblem[] {
  const step = normal(text);
  for (const q of quotations) {
    const piece = q.pieces.find((p) => step.includes(p));
    if (!piece) continue;
    const whole = q.name !== null && new RegExp(`"${escaped(q.core)}[.!?,;:…]*"`).test(step) && step.includes(q.name);
    if (!whole) {
      return [
        {
          step: n,
          code: 'broken_quotation',
          message: `Step ${n} shows words of a quotation ("${shown(piece)}") without all of it in quotation marks and the speaker's name: quote it whole and attributed, or leave it out.`,
        },
      ];
    }
  }
  return [];
}

const sentencesOf = (body: string) =>
  body
    .split(/\n+/)
    .flatMap((line) => normal(line).split(/(?<=[.!?]"?)\s+/))
    .map(bare)
    .filter((s) => s.length >= 20);

/** The first sentence of each step that an earlier step already has. */
function repeatProblems(steps: DraftStep[]): DraftProblem[] {
  const seen = new Map<string, number>();
  const problems: DraftProblem[] = [];
  steps.forEach((s, i) => {
    const own = sentencesOf(s.body);
    const repeated = own.find((sentence) => seen.has(sentence));
    if (repeated)
      problems.push({
        step: i + 1,
        code: 'repeated_sentence',
        message: `Step ${i + 1} repeats a sentence of step ${seen.get(repeated)} ("${shown(repeated)}"): each email should say something new.`,
      });
    for (const sentence of own) if (!seen.has(sentence)) seen.set(sentence, i + 1);
  });
  return problems;
}

/** Words of a call to action about when and how long, not about what: "a 15-minute call next week". */
const ASKING = new Set([
  'minute',
  'minutes',
  'hour',
  'next',
  'week',
  'weeks',
  'month',
  'day',
  'days',
  'today',
  'tomorrow',
  'quick',
  'short',
  'chat',
  'talk',
  'time',
  'reply',
  'intro',
  'walkthrough',
]);

/** The goal's and call to action's words the passages never mention, when they are more than half of them. */
export function briefProblems(brief: WriterBrief): DraftProblem[] {
  const words = keywords(`${brief.goal} ${brief.call_to_action}`).filter((w) => !ASKING.has(w));
  const known = brief.passages
    .map((p) => `${p.title ?? ''} ${p.text}`)
    .join('\n')
    .toLowerCase();
  const missing = words.filter((w) => !known.includes(w.slice(0, Math.max(4, w.length - 2))));
  if (missing.length * 2 <= words.length) return [];
  return [
    {
      step: 0,
      code: 'brief_outside_knowledge',
      message: `The goal and call to action are about things the knowledge found never mentions (${missing.join(', ')}): write the brief about what the ingested site offers, or ingest pages that say it.`,
    },
  ];
}

export function knowledgeProblems(steps: DraftStep[], brief: WriterBrief): DraftProblem[] {
  const quotations = quotationsOf(brief.passages);
  const perStep = steps.flatMap((s, i) => quotationProblems(i + 1, `${s.subject}\n${s.body}`, quotations));
  return [...briefProblems(brief), ...perStep, ...repeatProblems(steps)];
}
