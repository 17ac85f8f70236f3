// The blog-post-writer's grounded template writer and the checks every draft must pass, as pure functions.
import { describe, expect, it } from 'vitest';
import { checkPost } from '../../../src/handlers/agents/blog-post/check.ts';
import { blogPostInput } from '../../../src/handlers/agents/blog-post/input.ts';
import { clip, postSlug, writeBlogPost, type BlogPassage } from '../../../src/handlers/agents/blog-post/writer.ts';

const passages: BlogPassage[] = [
  {
    chunk_id: 'kc_a',
    url: 'https://acme.example/',
    title: 'Acme Rockets | Home',
    heading: 'Reusable rockets',
    text: 'Reusable rockets\nAcme Rockets builds reusable launch vehicles that small teams can fly every week. The Roadrunner lands itself on a small pad.',
  },
  {
    chunk_id: 'kc_b',
    url: 'https://acme.example/pricing',
    title: 'Pricing',
    heading: 'Pricing',
    text: 'A dedicated Roadrunner launch costs 1.2 million dollars for a small satellite team.',
  },
  {
    chunk_id: 'kc_c',
    url: 'https://acme.example/about',
    title: 'About',
    heading: null,
    text: 'Menu\nHome\nFounded in 2019, Acme Rockets employs forty engineers who build reusable rockets.',
  },
];
const input = blogPostInput.parse({ topic: 'reusable rockets for small teams', length: 'long' });

describe('writeBlogPost', () => {
  it('writes sections under the knowledge headings, each citing its page, and the same post every time', () => {
    const draft = writeBlogPost(input, passages)!;
    expect(draft.title).toBe('Reusable rockets for small teams');
    expect(draft.slug).toBe('reusable-rockets-for-small-teams');
    expect(draft.outline.map((s) => s.heading)).toEqual(['Reusable rockets', 'Pricing', 'About']);
    expect(draft.outline.map((s) => s.chunk_ids)).toEqual([['kc_a'], ['kc_b'], ['kc_c']]);
    expect(draft.body_markdown).toContain('*Source: [Pricing](https://acme.example/pricing)*');
    expect(draft.body_markdown).not.toContain('Menu');
    expect(writeBlogPost(input, passages)).toEqual(draft);
    expect(checkPost(draft, input, passages)).toEqual([]);
  });

  it('writes fewer sections for a short post and nothing from knowledge without sentences', () => {
    expect(writeBlogPost({ ...input, length: 'short' }, passages)!.outline).toHaveLength(2);
    expect(writeBlogPost(input, [{ ...passages[0], text: 'Home\nAbout\nPricing' }])).toBeNull();
  });

  it('transliterates slugs instead of dropping letters, and clips at a word', () => {
    expect(postSlug('Ça va? Rockets & <Teams>!')).toBe('ca-va-rockets-and-teams');
    expect(postSlug('Straße in Zürich')).toBe('strasse-in-zuerich');
    expect(postSlug('Łódź, Ørsted, Крылья')).toBe('lodz-orsted-krylya');
    expect(postSlug('!!!')).toBe('post');
    expect(postSlug('東京')).toBe('post');
    const slug = postSlug('rockets '.repeat(20));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug).toMatch(/^(rockets-)*rockets$/);
    const long = 'word '.repeat(60).trim();
    expect(clip(long, 160).length).toBeLessThanOrEqual(160);
    expect(clip(long, 160).endsWith('…')).toBe(true);
  });
});

describe('checkPost', () => {
  const good = writeBlogPost(input, passages)!;
  const codes = (patch: Partial<typeof good>) => checkPost({ ...good, ...patch }, input, passages).map((p) => p.code);

  it.each([
    ['raw HTML', { body_markdown: `${good.body_markdown}\n<script>alert(1)</script>` }, 'raw_html'],
    [
      'a link outside the knowledge',
      { body_markdown: `${good.body_markdown}\n[more](https://elsewhere.example/x)` },
      'ungrounded_link',
    ],
    [
      'a figure outside the knowledge',
      { body_markdown: `${good.body_markdown}\nIt costs 3.4 million.` },
      'ungrounded_figure',
    ],
    ['a meta description over 160 characters', { meta_description: 'x'.repeat(161) }, 'meta_description_length'],
    ['a malformed slug', { slug: 'Not A Slug' }, 'slug_format'],
    ['a placeholder', { body_markdown: `${good.body_markdown}\nTODO: more` }, 'placeholder'],
    ['a section citing an unknown chunk', { outline: [{ heading: 'X', chunk_ids: ['kc_zzz'] }] }, 'ungrounded_section'],
  ])('flags %s', (_name, patch, code) => {
    expect(codes(patch as Partial<typeof good>)).toContain(code);
  });
});
