// The default writer: no network and no model. Every claim in a draft is a sentence of the workspace's own
// knowledge (the passages retrieval found), chosen by how well it matches the goal and the audience and
// placed in fixed templates; the templates' own words assert nothing about the product. Pure: the same
// brief and passages always give the same draft.
import type { DraftStep, WriterBrief, WriterPassage } from '../model-writer.ts';
import { knowledgeSentences } from '../knowledge-sentences.ts';
import { keywords } from './keywords.ts';

interface Sentence {
  text: string;
  chunkId: string;
  score: number;
  proof: boolean;
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
  return knowledgeSentences(passages.map((p) => p.text), terms, { maxLength: 280, refused: /\{\{|\}\}|[<>]/ })
    .map((s) => ({ text: s.text, chunkId: passages[s.passage].chunk_id, score: s.score, proof: PROOF.test(s.text), order: s.order }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
}

/** The product's name as the knowledge's first page titles it ("Acme Rocket | Home" → "Acme Rocket"). */
export function productName(passages: WriterPassage[]): string {
  const title = passages.find((p) => p.title)?.title?.split(/\s[|–—-]\s|:\s/)[0]?.trim();
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

/** Takes the best unused sentence of the wanted kind, else the best unused one, else the best one at all. */
function take(pool: Sentence[], used: Set<Sentence>, proof: boolean | null): Sentence | undefined {
  const unused = pool.filter((s) => !used.has(s));
  const pick = unused.find((s) => proof === null || s.proof === proof) ?? unused[0] ?? pool[0];
  if (pick) used.add(pick);
  return pick;
}

function lines(kind: StepKind, product: string, cta: string, facts: string[]): { subject: string; middle: string[] } {
  switch (kind) {
    case 'intro':
      return { subject: `${product} for ${COMPANY}`, middle: [`I'm reaching out because ${product} may be useful to ${COMPANY}.`, facts.join(' '), `Would you be open to ${cta}?`] };
    case 'proof':
      return { subject: `How teams use ${product}`, middle: ['Following up on my last note with a little more detail.', facts.join(' '), `If it sounds relevant to ${COMPANY}, would you be open to ${cta}?`] };
    case 'value':
      return { subject: `One more idea for ${COMPANY}`, middle: [`One more thing about ${product}:`, facts.join(' '), `Would ${cta} be worth it?`] };
    case 'breakup':
      return { subject: 'Closing the loop, {{first_name | "there"}}', middle: [`I haven't heard back, so this is my last note about ${product}.`, facts.join(' '), `If the timing is wrong, just say so and I'll close the loop. Otherwise, would you be open to ${cta}?`] };
  }
}

export function writeWithTemplates(brief: WriterBrief): DraftStep[] {
  const pool = sentencesOf(brief.passages, keywords(`${brief.goal} ${brief.audience}`));
  if (!pool.length) return [];
  const product = productName(brief.passages);
  const tone = TONES[brief.tone] ?? TONES.professional;
  const cta = brief.call_to_action.trim().replace(/[.?!]+$/, '');
  const used = new Set<Sentence>();
  return stepKinds(brief.steps).map((kind, i) => {
    const wanted = kind === 'proof' ? true : kind === 'breakup' ? null : false;
    const picked = [take(pool, used, wanted), kind === 'breakup' ? undefined : take(pool, used, wanted)].filter((s): s is Sentence => Boolean(s));
    const facts = [...new Set(picked)].sort((a, b) => a.order - b.order);
    const { subject, middle } = lines(kind, product, cta, facts.map((s) => s.text));
    return {
      subject,
      body: [tone.hello, ...middle, tone.bye].join('\n\n'),
      wait_days: WAIT_DAYS[i],
      source_chunk_ids: [...new Set(facts.map((s) => s.chunkId))],
    };
  });
}
