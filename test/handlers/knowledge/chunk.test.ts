import { describe, expect, it } from 'vitest';
import { chunkPage, estimateTokens, type Chunk } from '../../../src/handlers/knowledge/chunk.ts';
import { extractPage } from '../../../src/handlers/knowledge/extract.ts';
import type { Block, ExtractedPage } from '../../../src/handlers/knowledge/page-blocks.ts';
import { longGuide, marketingHome } from './fixtures/pages.ts';

const h = (level: 1 | 2 | 3 | 4 | 5 | 6, text: string): Block => ({ kind: 'heading', level, text });
const p = (text: string): Block => ({ kind: 'text', text });
const page = (blocks: Block[]): ExtractedPage => ({
  url: 'https://acme.example/',
  title: 'Acme',
  canonicalUrl: null,
  blocks,
  links: [],
});

/** Distinct sentences of about 20 tokens. */
const sentence = (n: number) => `Sentence number ${n} explains one more detail of how the product handles email.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => sentence(from + i)).join(' ');

const guideChunks = chunkPage(
  await extractPage({ url: longGuide.url, contentType: 'text/html', body: longGuide.html }),
);

/** The longest start of `next` that `previous` ends with, at a word boundary. */
function overlapOf(previous: Chunk, next: Chunk): string {
  for (let length = Math.min(previous.text.length, next.text.length); length > 0; length--) {
    const candidate = next.text.slice(0, length);
    if (previous.text.endsWith(candidate) && /\s/.test(previous.text[previous.text.length - length - 1] ?? ' '))
      return candidate;
  }
  return '';
}

describe('chunkPage: headings', () => {
  const chunks = chunkPage(
    page([
      p('Welcome to Acme.'),
      h(1, 'Guide'),
      p('Intro to the guide.'),
      h(2, 'Setup'),
      p('Install the agent.'),
      h(3, 'On Linux'),
      p('Use the package.'),
      h(2, 'Usage'),
      p('Run it daily.'),
    ]),
  );

  it('gives each chunk the stack of enclosing headings as its path', () => {
    expect(chunks.map((c) => c.headingPath)).toEqual([
      [],
      ['Guide'],
      ['Guide', 'Setup'],
      ['Guide', 'Setup', 'On Linux'],
      ['Guide', 'Usage'],
    ]);
  });

  it('starts the chunk of each section with its heading line', () => {
    expect(chunks.map((c) => c.text)).toEqual([
      'Welcome to Acme.',
      '# Guide\n\nIntro to the guide.',
      '## Setup\n\nInstall the agent.',
      '### On Linux\n\nUse the package.',
      '## Usage\n\nRun it daily.',
    ]);
  });

  it('pops deeper headings when a shallower one follows, whatever levels are skipped', () => {
    const skipped = chunkPage(
      page([h(1, 'A'), p('a'), h(4, 'B'), p(paragraph(0, 40)), h(2, 'C'), p(paragraph(100, 40))]),
    );
    expect(skipped.map((c) => c.headingPath)).toEqual([['A'], ['A', 'B'], ['A', 'C']]);
  });

  it('carries a heading without text of its own into its first subsection', () => {
    const carried = chunkPage(
      page([h(2, 'Features'), h(3, 'Speed'), p(paragraph(0, 40)), h(3, 'Safety'), p(paragraph(100, 40))]),
    );
    expect(carried[0].text.startsWith('## Features\n\n### Speed\n\nSentence number 0')).toBe(true);
    expect(carried[1].text.startsWith('### Safety\n\nSentence number 100')).toBe(true);
  });

  it('merges small sibling sections into one chunk under the path they share', async () => {
    const home = chunkPage(
      await extractPage({ url: marketingHome.url, contentType: 'text/html', body: marketingHome.html }),
    );
    const features = home.find((c) => c.text.includes('### Smart segmentation'));
    expect(features?.headingPath).toEqual(['Email campaigns that write themselves', 'Features']);
    expect(features?.text).toMatch(
      /^## Features\n\n### Smart segmentation\n\n[\s\S]*### AI drafting in your voice[\s\S]*### Deliverability built in/,
    );
  });

  it('does not merge sections with different parents', () => {
    const separate = chunkPage(page([h(2, 'A'), p('a'), h(3, 'A1'), p('a1'), h(2, 'B'), p('b')]));
    expect(separate.map((c) => c.headingPath)).toEqual([['A'], ['A', 'A1'], ['B']]);
  });

  it('merges siblings only while the chunk stays under the target', () => {
    const siblings = chunkPage(
      page([h(2, 'A'), p(paragraph(0, 12)), h(2, 'B'), p(paragraph(100, 12)), h(2, 'C'), p(paragraph(200, 12))]),
    );
    expect(siblings.map((c) => c.headingPath)).toEqual([[], ['C']]);
    expect(siblings[0].text).toMatch(/^## A\n\n[\s\S]*\n\n## B\n\n/);
    expect(siblings.every((c) => c.tokens <= 600)).toBe(true);
  });
});

describe('chunkPage: sizes and overlap on a long page', () => {
  it('keeps every chunk within the maximum and every non-final chunk of a section near the target', () => {
    expect(guideChunks.length).toBeGreaterThan(10);
    guideChunks.forEach((chunk, i) => {
      expect(chunk.tokens).toBeLessThanOrEqual(800);
      const next = guideChunks[i + 1];
      if (next && !next.text.startsWith('#')) expect(chunk.tokens).toBeGreaterThanOrEqual(400);
    });
  });

  it('counts tokens as ceil(characters / 4)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    for (const chunk of guideChunks) expect(chunk.tokens).toBe(Math.ceil(chunk.text.length / 4));
  });

  it('repeats whole sentences from the end of a prose chunk at the start of the next one of the same section', () => {
    let checked = 0;
    guideChunks.forEach((chunk, i) => {
      const next = guideChunks[i + 1];
      if (!next || next.text.startsWith('#') || next.text.startsWith('```')) return;
      const overlap = overlapOf(chunk, next);
      expect(overlap.length).toBeGreaterThan(20);
      expect(estimateTokens(overlap)).toBeLessThanOrEqual(120);
      expect(overlap).toMatch(/^(- )?[A-Z]/);
      expect(overlap).toMatch(/[.!?]$/);
      checked += 1;
    });
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it('does not overlap across sections', () => {
    const chunks = chunkPage(page([h(2, 'A'), p(paragraph(0, 60)), h(2, 'B'), p(paragraph(100, 60))]));
    const firstOfB = chunks.findIndex((c) => c.headingPath[0] === 'B');
    expect(chunks[firstOfB].text.startsWith('## B\n\nSentence number 100 ')).toBe(true);
  });

  it('splits a paragraph longer than a chunk at sentence boundaries', () => {
    const chunks = chunkPage(page([h(2, 'Long'), p(paragraph(0, 120))]));
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.text).toMatch(/^(## Long\n\n)?Sentence number \d+ explains/);
      expect(chunk.text).toMatch(/email\.$/);
    }
  });

  it('keeps every sentence of the page in some chunk, in reading order', () => {
    const chunks = chunkPage(
      page([h(1, 'T'), p(paragraph(0, 30)), p(paragraph(30, 50)), h(2, 'U'), p(paragraph(80, 70))]),
    );
    const seen = chunks.flatMap((c) => [...c.text.matchAll(/Sentence number (\d+)/g)].map((m) => Number(m[1])));
    const firstSeen = [...new Set(seen)];
    expect(firstSeen).toEqual(Array.from({ length: 150 }, (_, i) => i));
  });

  it('does not cut a sentence after an abbreviation', () => {
    const text = Array.from(
      { length: 80 },
      (_, i) => `Dr. Smith approved change ${i} of the launch plan on Monday.`,
    ).join(' ');
    const chunks = chunkPage(page([p(text)]), { targetTokens: 200, maxTokens: 300, overlapTokens: 20 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.text.startsWith('Dr. Smith approved change')).toBe(true);
  });

  it('cuts a sentence longer than a chunk between words', () => {
    const runOn = Array.from({ length: 900 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkPage(page([p(runOn)]));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(800);
    expect(chunks.map((c) => c.text).join(' ')).toContain('word0 word1');
    expect(chunks.every((c) => /^word\d+$/.test(c.text.split(' ').at(-1) ?? ''))).toBe(true);
  });

  it('splits an oversized code block into fenced runs of whole lines', () => {
    const code = guideChunks.filter((c) => c.headingPath.at(-1) === 'A warm-up script');
    expect(code.length).toBeGreaterThan(2);
    const line = String.raw`  await queue\.add\('warmup-\d+', \{ day: \d+, limit: \d+ \}\); \/\/ day \d+\n`;
    for (const chunk of code)
      expect(chunk.text).toMatch(
        new RegExp(String.raw`\`\`\`\n(async function warmUp\(queue\) \{\n)?(${line})+(\}\n)?\`\`\`$`),
      );
    const days = code.flatMap((c) => [...c.text.matchAll(/warmup-(\d+)/g)].map((m) => Number(m[1])));
    expect(days).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });
});

describe('chunkPage: edges and options', () => {
  it('numbers chunks from 0 in reading order and never emits an empty one', () => {
    expect(guideChunks.map((c) => c.position)).toEqual(guideChunks.map((_, i) => i));
    expect(guideChunks.every((c) => c.text.trim().length > 0 && c.tokens > 0)).toBe(true);
  });

  it('returns no chunks for a page without blocks or with only headings', () => {
    expect(chunkPage(page([]))).toEqual([]);
    expect(chunkPage(page([h(1, 'Title'), h(2, 'Empty section'), p('   ')]))).toEqual([]);
  });

  it('honours smaller sizes', () => {
    const chunks = chunkPage(page([h(2, 'A'), p(paragraph(0, 100))]), {
      targetTokens: 200,
      maxTokens: 300,
      overlapTokens: 20,
    });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(300);
  });

  it('fits the default maximum and overlap to a small target', () => {
    const chunks = chunkPage(page([p(paragraph(0, 40))]), { targetTokens: 120 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(160);
  });

  it('makes no overlap when asked for none', () => {
    const chunks = chunkPage(page([p(paragraph(0, 100))]), { overlapTokens: 0 });
    const numbers = chunks.flatMap((c) => [...c.text.matchAll(/Sentence number (\d+)/g)].map((m) => m[1]));
    expect(numbers).toHaveLength(100);
  });

  it.each([
    ['a target below 100 tokens', { targetTokens: 50 }],
    ['a maximum below the target', { targetTokens: 600, maxTokens: 500 }],
    ['an overlap above a quarter of the target', { overlapTokens: 200 }],
    ['a negative overlap', { overlapTokens: -1 }],
    ['fractional sizes', { targetTokens: 600.5 }],
  ])('rejects %s', (_name, options) => {
    expect(() => chunkPage(page([p('x')]), options)).toThrow(RangeError);
  });
});
