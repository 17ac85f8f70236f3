// The blog-post-writer's default writer: no network and no model. The post is whole sentences of the
// workspace's own knowledge (the passages retrieval found), chosen by how well they match the topic and
// organised under an outline whose headings are the knowledge's own headings; each section cites the
// page it came from. The template's own words assert nothing. Pure: the same brief and passages always
// give the same post.
import type { WriterPassage } from '../model-writer.ts';
import { slugify } from '../../../slug.ts';
import { keywords } from '../email-sequence/keywords.ts';
import { knowledgeSentences, type KnowledgeSentence } from '../knowledge-sentences.ts';
import { SECTIONS, type BlogPostInput } from './input.ts';

export interface BlogPassage extends WriterPassage {
  /** The heading the chunk sits under on its page, if any. */
  heading: string | null;
}

export interface BlogDraft {
  title: string;
  slug: string;
  meta_description: string;
  outline: { heading: string; chunk_ids: string[] }[];
  body_markdown: string;
}

type Sentence = KnowledgeSentence;

export const META_MAX = 160;
const PER_SECTION: Record<BlogPostInput['length'], number> = { short: 2, medium: 3, long: 4 };

export const briefTerms = (input: BlogPostInput): string[] =>
  keywords([input.topic, input.audience ?? '', ...(input.keywords ?? [])].join(' '));

function sentencesOf(passages: BlogPassage[], terms: string[]): Sentence[] {
  return knowledgeSentences(
    passages.map((p) => p.text),
    terms,
    { maxLength: 320, refused: /[<>`[\]]/ },
  );
}

export const postSlug = (title: string): string => slugify(title, 80, 'post');

/** Whole words up to `max` characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 40 ? cut.lastIndexOf(' ') : cut.length).replace(/[\s,;:.]+$/, '')}…`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const linkText = (text: string) => text.replace(/[[\]\\]/g, '');

/** The line that ends a section: the page it drew on. */
export const sourceLine = (passage: BlogPassage): string =>
  `*Source: [${linkText(passage.title ?? passage.url)}](${passage.url})*`;

/** Section headings: the chunk's own heading, else its page's title; each used once. */
function headingOf(passage: BlogPassage, used: Set<string>): string | null {
  for (const candidate of [passage.heading, passage.title?.split(/\s[|–—-]\s/)[0]]) {
    const heading = candidate
      ?.replace(/\s+/g, ' ')
      .replace(/[#<>`]/g, '')
      .trim();
    if (heading && heading.length <= 120 && !used.has(heading.toLowerCase())) return heading;
  }
  return null;
}

export function writeBlogPost(input: BlogPostInput, passages: BlogPassage[]): BlogDraft | null {
  const pool = sentencesOf(passages, briefTerms(input));
  if (!pool.length) return null;
  const best = [...pool].sort((a, b) => b.score - a.score || a.order - b.order);
  const intro = best[0];
  const usedHeadings = new Set<string>();
  const sections: { heading: string; passage: BlogPassage; sentences: Sentence[] }[] = [];
  for (const [p, passage] of passages.entries()) {
    if (sections.length === SECTIONS[input.length]) break;
    const sentences = best
      .filter((s) => s.passage === p && s !== intro)
      .slice(0, PER_SECTION[input.length])
      .sort((a, b) => a.order - b.order);
    const heading = sentences.length ? headingOf(passage, usedHeadings) : null;
    if (!heading) continue;
    usedHeadings.add(heading.toLowerCase());
    sections.push({ heading, passage, sentences });
  }
  const title = clip(capitalised(input.topic.replace(/\s+/g, ' ')), 120);
  const body = [intro.text];
  for (const s of sections) {
    body.push(`## ${s.heading}`, s.sentences.map((x) => x.text).join(' '), sourceLine(s.passage));
  }
  return {
    title,
    slug: postSlug(title),
    meta_description: clip(intro.text, META_MAX),
    outline: sections.map((s) => ({ heading: s.heading, chunk_ids: [s.passage.chunk_id] })),
    body_markdown: `${body.join('\n\n')}\n`,
  };
}
