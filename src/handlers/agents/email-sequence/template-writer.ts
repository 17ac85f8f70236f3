// The default writer: no network and no model. Every claim in a draft is a sentence of the workspace's own
// knowledge (the passages retrieval found), chosen by how well it matches the goal and the audience and
// placed in fixed templates; the templates' own words assert nothing about the product. A customer's
// quotation goes in whole, in its marks and with its speaker, as a paragraph of its own; no sentence is used
// in two steps, and a step kind used twice is worded differently the second time. Pure: the same brief and
// passages always give the same draft.
import type { DraftStep, WriterBrief, WriterPassage } from '../model-writer.ts';
import { knowledgeSentences } from '../knowledge-sentences.ts';
import { keywords } from './keywords.ts';

interface Sentence {
  text: string;
  chunkId: string;
  score: number;
  proof: boolean;
  quote: boolean;
  order: number;
}

type StepKind = 'intro' | 'proof' | 'value' | 'breakup';

const PROOF = /\d|\b(customers?|clients?|trusted|used by|rated|award|case study|results?)\b/i;
const TONES: Record<string, { hello: string; bye: string }> = {
  friendly: { hello: 'Hi {{first_name | "there"}},', bye: 'Cheers' },
  professional: { hello: 'Hello {{first_name | "there"}},', bye: 'Best regards' },
  direct: { hello: '{{first_name | "Hi"}},', bye: 'Thanks' },
};
const WAIT_DAYS = [0, 3, 4, 5, 7, 7];
const COMPANY = '{{company | "your team"}}';

function sentencesOf(passages: WriterPassage[], terms: string[]): Sentence[] {
  return knowledgeSentences(
    passages.map((p) => p.text),
    terms,
    { maxLength: 280, refused: /\{\{|\}\}|[<>]/ },
  )
    .map((s) => ({
      text: s.text,
      chunkId: passages[s.passage].chunk_id,
      score: s.score,
      proof: s.quote || PROOF.test(s.text),
      quote: s.quote,
      order: s.order,
    }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
}

/** The product's name as the knowledge's first page titles it ("Acme Rocket | Home" → "Acme Rocket"). */
export function productName(passages: WriterPassage[]): string {
  const title = passages
    .find((p) => p.title)
    ?.title?.split(/\s[|–—-]\s|:\s/)[0]
    ?.trim();
  if (title && title.length <= 40) return title;
  try {
    return new URL(passages[0].url).hostname.replace(/^www\./, '');
  } catch {
    return 'our product';
  }
}

function stepKinds(count: number): StepKind[] {
  if (count === 1) return ['intro'];
  const middle: StepKind[] = ['proof', 'value', 'proof', 'value'];
  return ['intro', ...middle.slice(0, count - 2), 'breakup'];
}

/** Takes the best unused sentence of the wanted kind, else the best unused one; never one used before. */
function take(pool: Sentence[], used: Set<Sentence>, proof: boolean | null): Sentence | undefined {
  const unused = pool.filter((s) => !used.has(s));
  const pick = unused.find((s) => proof === null || s.proof === proof) ?? unused[0];
  if (pick) used.add(pick);
  return pick;
}

/** The template's lines for a step kind; `again` is true the second time a kind is used in a sequence. */
function lines(
  kind: StepKind,
  again: boolean,
  product: string,
  cta: string,
): { subject: string; opener: string; ask: string } {
  switch (kind) {
    case 'intro':
      return {
        subject: `${product} for ${COMPANY}`,
        opener: `I'm reaching out because ${product} may be useful to ${COMPANY}.`,
        ask: `Would you be open to ${cta}?`,
      };
    case 'proof':
      return again
        ? {
            subject: `More on ${product}`,
            opener: 'A little more on what I wrote before.',
            ask: `Could ${cta} be useful for ${COMPANY}?`,
          }
        : {
            subject: `How teams use ${product}`,
            opener: 'Following up on my last note with a little more detail.',
            ask: `If it sounds relevant to ${COMPANY}, would you be open to ${cta}?`,
          };
    case 'value':
      return again
        ? {
            subject: `A last detail for ${COMPANY}`,
            opener: `Another thing about ${product}:`,
            ask: `Is ${cta} worth a reply?`,
          }
        : {
            subject: `One more idea for ${COMPANY}`,
            opener: `One more thing about ${product}:`,
            ask: `Would ${cta} be worth it?`,
          };
    case 'breakup':
      return {
        subject: 'Closing the loop, {{first_name | "there"}}',
        opener: `I haven't heard back, so this is my last note about ${product}.`,
        ask: `If the timing is wrong, just say so and I'll close the loop. Otherwise, would you be open to ${cta}?`,
      };
  }
}

/** Prose sentences as one paragraph; each quotation a paragraph of its own, so it never reads as ours. */
const paragraphs = (facts: Sentence[]): string[] => {
  const prose = facts.filter((s) => !s.quote).map((s) => s.text);
  return [...(prose.length ? [prose.join(' ')] : []), ...facts.filter((s) => s.quote).map((s) => s.text)];
};

/** How many sentences each step gets: two where the pool allows (one for the closing note), at least one. */
function shares(kinds: StepKind[], available: number): number[] | null {
  if (available < kinds.length) return null;
  let spare = available - kinds.length;
  return kinds.map((kind) => {
    if (kind === 'breakup' || spare === 0) return 1;
    spare--;
    return 2;
  });
}

export function writeWithTemplates(brief: WriterBrief): DraftStep[] {
  const pool = sentencesOf(brief.passages, keywords(`${brief.goal} ${brief.audience}`));
  const kinds = stepKinds(brief.steps);
  const counts = shares(kinds, pool.length);
  if (!counts) return [];
  const product = productName(brief.passages);
  const tone = TONES[brief.tone] ?? TONES.professional;
  const cta = brief.call_to_action.trim().replace(/[.?!]+$/, '');
  const used = new Set<Sentence>();
  return kinds.map((kind, i) => {
    const wanted = kind === 'proof' ? true : kind === 'breakup' ? null : false;
    const picked = Array.from({ length: counts[i] }, () => take(pool, used, wanted)).filter((s): s is Sentence =>
      Boolean(s),
    );
    const facts = picked.sort((a, b) => a.order - b.order);
    const { subject, opener, ask } = lines(kind, kinds.indexOf(kind) < i, product, cta);
    return {
      subject,
      body: [tone.hello, opener, ...paragraphs(facts), ask, tone.bye].join('\n\n'),
      wait_days: WAIT_DAYS[i],
      source_chunk_ids: [...new Set(facts.map((s) => s.chunkId))],
    };
  });
}
