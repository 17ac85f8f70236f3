// The ad-copy writer: no network and no model. Every claim is a sentence of the workspace's own knowledge,
// chosen by how well it matches the goal, and every link is the page that sentence came from; the
// headline is a short knowledge sentence or the product's name. Meta's limits are enforced here and
// checked again before anything is written (headline 40, primary text 125, description 30 characters).
// Pure: the same goal and passages always give the same creatives.
import type { AdCreative, CallToAction } from '../../ads/ad-campaigns-data.ts';
import { TEXT_LIMITS } from '../../ads/campaign-input.ts';
import { keywords } from '../email-sequence/keywords.ts';
import { productName } from '../email-sequence/template-writer.ts';
import type { WriterPassage } from '../model-writer.ts';
import { knowledgeSentences } from '../knowledge-sentences.ts';

interface Sentence {
  text: string;
  url: string;
  chunkId: string;
  score: number;
  order: number;
}

export interface WrittenCreative extends AdCreative {
  source_chunk_ids: string[];
}

const chars = (s: string) => [...s].length;

function sentencesOf(passages: WriterPassage[], terms: string[]): Sentence[] {
  return knowledgeSentences(
    passages.map((p) => p.text),
    terms,
    { minLength: 15, refused: /[{}]|www\./i },
  )
    .map((s) => ({
      text: s.text,
      url: passages[s.passage].url,
      chunkId: passages[s.passage].chunk_id,
      score: s.score,
      order: s.order,
    }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
}

/** A headline: a knowledge sentence short enough (without its final stop), else the product's name. */
function headlineFrom(pool: Sentence[], used: Set<Sentence>, product: string): { text: string; source?: Sentence } {
  const short = pool.find((s) => !used.has(s) && chars(s.text.replace(/[.!]$/, '')) <= TEXT_LIMITS.headline);
  if (short) {
    used.add(short);
    return { text: short.text.replace(/[.!]$/, ''), source: short };
  }
  return { text: [...product].slice(0, TEXT_LIMITS.headline).join('').trim() };
}

export function writeAdCopy(brief: {
  goal: string;
  count: number;
  passages: WriterPassage[];
  callToAction?: CallToAction;
}): WrittenCreative[] {
  const pool = sentencesOf(brief.passages, keywords(brief.goal));
  const bodies = pool.filter((s) => chars(s.text) <= TEXT_LIMITS.primary_text);
  const product = productName(brief.passages);
  const used = new Set<Sentence>();
  const out: WrittenCreative[] = [];
  for (const body of bodies) {
    if (out.length === brief.count) break;
    if (used.has(body)) continue;
    used.add(body);
    const headline = headlineFrom(pool, used, product);
    out.push({
      headline: headline.text,
      primary_text: body.text,
      ...(chars(product) <= TEXT_LIMITS.description && { description: product }),
      link_url: body.url,
      call_to_action: brief.callToAction ?? 'LEARN_MORE',
      source_chunk_ids: [...new Set([body.chunkId, ...(headline.source ? [headline.source.chunkId] : [])])],
    });
  }
  return out;
}

/** What is wrong with a creative: a text past its limit, or a link that is not a knowledge page. */
export function creativeProblems(c: AdCreative, knowledgeUrls: Set<string>): string[] {
  const problems: string[] = [];
  for (const [key, limit] of Object.entries(TEXT_LIMITS)) {
    const text = c[key as keyof typeof TEXT_LIMITS];
    if (text !== undefined && (chars(text) > limit || (key !== 'description' && !text.trim())))
      problems.push(`${key} must be 1 to ${limit} characters`);
    if (text && /https?:\/\/|www\./i.test(text)) problems.push(`${key} must not carry a link`);
  }
  if (!knowledgeUrls.has(c.link_url)) problems.push(`link_url ${c.link_url} is not a page of the knowledge`);
  return problems;
}
