// What a drafted post must pass before it becomes a blog post, whichever writer wrote it: a title, a slug
// and a meta description within limits; Markdown only (no raw HTML: the renderer would drop it, and a
// writer that emits it is not doing its job); no placeholders; every section citing passages it was given;
// and nothing from outside the workspace's knowledge: every link and every figure must appear in the
// passages (or in the brief itself).
import type { BlogPostInput } from './input.ts';
import { META_MAX, type BlogDraft, type BlogPassage } from './writer.ts';

export interface PostProblem {
  pointer: string;
  code: string;
  message: string;
}

export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const RAW_HTML = /<\/?[a-z!?][^>]*>?/i;
const PLACEHOLDER = /\[(?:[A-Z][A-Za-z ]{1,30}|insert[^\]]*|your [^\]]*)\](?!\()|\b(?:TODO|TBD|lorem ipsum)\b/i;
const URL = /\bhttps?:\/\/[^\s)>\]]+/gi;
const FIGURE = /\d[\d,.]*\s?%?/g;

function groundingProblems(text: string, known: string): PostProblem[] {
  const problems: PostProblem[] = [];
  for (const url of text.match(URL) ?? []) {
    if (!known.includes(url.replace(/[.,;:!?]+$/, '').toLowerCase()))
      problems.push({
        pointer: '/body_markdown',
        code: 'ungrounded_link',
        message: `The link ${url} is not in the workspace's knowledge.`,
      });
  }
  for (const raw of text.replace(URL, ' ').match(FIGURE) ?? []) {
    const figure = raw.trim().replace(/[.,]+$/, '');
    if (/^\d$/.test(figure)) continue;
    if (!known.includes(figure.toLowerCase()))
      problems.push({
        pointer: '/body_markdown',
        code: 'ungrounded_figure',
        message: `The figure "${figure}" is not in the workspace's knowledge.`,
      });
  }
  return problems;
}

export function checkPost(draft: BlogDraft, input: BlogPostInput, passages: BlogPassage[]): PostProblem[] {
  const problems: PostProblem[] = [];
  const add = (pointer: string, code: string, message: string) => problems.push({ pointer, code, message });
  if (!draft.title.trim() || draft.title.length > 200)
    add('/title', 'title_length', 'The title must have 1 to 200 characters.');
  if (!SLUG.test(draft.slug) || draft.slug.length > 80)
    add('/slug', 'slug_format', 'The slug must be lower-case words joined by hyphens, at most 80 characters.');
  if (!draft.meta_description.trim() || draft.meta_description.length > META_MAX)
    add('/meta_description', 'meta_description_length', `The meta description must have 1 to ${META_MAX} characters.`);
  if (draft.body_markdown.trim().length < 100)
    add('/body_markdown', 'body_length', 'The body must have at least 100 characters.');
  for (const [field, text] of [
    ['title', draft.title],
    ['meta_description', draft.meta_description],
    ['body_markdown', draft.body_markdown],
  ] as const) {
    if (RAW_HTML.test(text)) add(`/${field}`, 'raw_html', 'Raw HTML is not allowed: write Markdown.');
    if (PLACEHOLDER.test(text))
      add(`/${field}`, 'placeholder', 'The post still holds a placeholder such as [Name] or TODO.');
  }
  const chunkIds = new Set(passages.map((p) => p.chunk_id));
  if (!draft.outline.length) add('/outline', 'no_sections', 'The post has no section drawn from the knowledge.');
  draft.outline.forEach((section, i) => {
    if (!section.chunk_ids.length || section.chunk_ids.some((id) => !chunkIds.has(id)))
      add(
        `/outline/${i}`,
        'ungrounded_section',
        `Section "${section.heading}" cites no passage of the knowledge it was given.`,
      );
  });
  const known = [
    input.topic,
    input.audience ?? '',
    ...(input.keywords ?? []),
    ...passages.map((p) => `${p.text} ${p.url} ${p.title ?? ''} ${p.heading ?? ''}`),
  ]
    .join('\n')
    .toLowerCase();
  return [
    ...problems,
    ...groundingProblems(`${draft.title}\n${draft.meta_description}\n${draft.body_markdown}`, known),
  ];
}
