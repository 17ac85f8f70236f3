import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../../src/handlers/knowledge/extract.ts';
import type { Block, ExtractedPage } from '../../../src/handlers/knowledge/page-blocks.ts';
import { blogArticle, mainOnlyPage, marketingHome, type PageFixture } from './fixtures/pages.ts';

async function extract(fixture: PageFixture): Promise<ExtractedPage> {
  return await extractPage({ url: fixture.url, contentType: 'text/html; charset=utf-8', body: fixture.html });
}

function html(body: string, head = '<title>Test page</title>'): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

async function blocksOf(body: string): Promise<Block[]> {
  return (await extractPage({ url: 'https://acme.example/page', contentType: 'text/html', body: html(body) })).blocks;
}

const allText = (page: ExtractedPage) => page.blocks.map((b) => b.text).join('\n');
const headings = (page: ExtractedPage) => page.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text]);
const prose = (sentence: string) =>
  `<p>${sentence} This sentence is here so that the paragraph reads like real content on a real page.</p>`;

describe('extractPage: main content of realistic pages', () => {
  it.each([
    ['a marketing homepage', marketingHome],
    ['a blog article', blogArticle],
    ['a help page whose content only Readability misses', mainOnlyPage],
  ])('keeps the key sentences of %s and none of its boilerplate', async (_name, fixture) => {
    const text = allText(await extract(fixture));
    for (const sentence of fixture.keep) expect(text).toContain(sentence);
    for (const junk of fixture.drop) expect(text).not.toContain(junk);
  });

  it('falls back to main when Readability finds nothing there', async () => {
    const article = new Readability(parseHTML(mainOnlyPage.html).document).parse();
    expect(article?.textContent ?? '').not.toContain('European Union');
    const page = await extract(mainOnlyPage);
    expect(page.blocks[0]).toEqual({ kind: 'heading', level: 1, text: 'Shipping questions' });
    expect(allText(page)).toContain('Do you ship printed welcome packs abroad?');
  });

  it('keeps the headings of a marketing page with their level and case', async () => {
    expect(headings(await extract(marketingHome))).toEqual([
      [1, 'Email campaigns that write themselves'],
      [2, 'Features'],
      [3, 'Smart segmentation'],
      [3, 'AI drafting in your voice'],
      [3, 'Deliverability built in'],
      [2, 'Loved by small teams'],
      [2, 'Pricing'],
      [3, 'Starter'],
      [3, 'Growth'],
    ]);
  });

  it('keeps the h1 and the h2/h3 outline of an article that Readability renames', async () => {
    expect(headings(await extract(blogArticle))).toEqual([
      [1, 'How we cut bounce rates by 40%'],
      [2, 'Why bounces happen'],
      [3, 'Hard bounces'],
      [3, 'Soft bounces'],
      [2, 'What we changed'],
      [2, 'The code'],
    ]);
  });

  it('renders the list, table and code block of an article readably', async () => {
    const texts = (await extract(blogArticle)).blocks.map((b) => b.text);
    expect(texts).toContain(
      '- Mistyped addresses such as jane@gmial.com\n- People who left the company\n  - Their mailbox is usually deleted after 30 days\n- Domains that expired',
    );
    expect(texts).toContain(
      '1. We validate every imported address with an MX lookup before the first send.\n2. We suppress an address after a single hard bounce, across all workspaces.\n3. We slow down sending to a provider as soon as it returns deferral codes.',
    );
    expect(texts).toContain(
      'Bounce rates before and after\nMetric: Hard bounce rate; Before: 2.3%; After: 1.4%\nMetric: Soft bounce rate; Before: 4.1%; After: 2.2%',
    );
    expect(texts).toContain(
      '```\nfunction shouldSend(address, suppressions) {\n  if (suppressions.has(address.toLowerCase())) {\n    return false;\n  }\n  return true;\n}\n```',
    );
  });
});

describe('extractPage: text blocks', () => {
  it('joins the source line breaks of a paragraph and keeps <br> breaks', async () => {
    const blocks = await blocksOf(`<main><p>First line
      of the same sentence.</p><address>Flowmail Inc.<br>12 Harbour Street<br/>Leith</address></main>`);
    expect(blocks).toEqual([
      { kind: 'text', text: 'First line of the same sentence.' },
      { kind: 'text', text: 'Flowmail Inc.\n12 Harbour Street\nLeith' },
    ]);
  });

  it('normalises whitespace, non-breaking spaces and invisible characters', async () => {
    expect(await blocksOf('<main><p>  Price:&nbsp;$19\u200B per\tmonth &shy; </p></main>')).toEqual([
      { kind: 'text', text: 'Price: $19 per month' },
    ]);
  });

  it('drops elements hidden with hidden, aria-hidden, display:none, visibility:hidden or screen-reader classes', async () => {
    const blocks = await blocksOf(`<main>${prose('Visible words stay.')}
      <p hidden>Hidden attribute.</p><p aria-hidden="true">Aria hidden.</p><p style="display:none">Display none.</p>
      <p style="color: red; visibility: hidden">Visibility hidden.</p><span class="sr-only">Screen reader only.</span></main>`);
    expect(blocks.map((b) => b.text).join(' ')).not.toMatch(
      /Hidden attribute|Aria hidden|Display none|Visibility hidden|Screen reader only/,
    );
    expect(blocks[0].text).toContain('Visible words stay.');
  });

  it('numbers an ordered list from its start attribute', async () => {
    expect(await blocksOf('<main><ol start="3"><li>Third</li><li>Fourth</li></ol></main>')).toEqual([
      { kind: 'text', text: '3. Third\n4. Fourth' },
    ]);
  });

  it('renders a table without a header row with cells separated by bars', async () => {
    expect(
      await blocksOf(
        '<main><table><tr><td>Monday</td><td>9–17</td></tr><tr><td>Saturday</td><td>10–14</td></tr></table></main>',
      ),
    ).toEqual([{ kind: 'text', text: 'Monday | 9–17\nSaturday | 10–14' }]);
  });

  it('reads a layout table as ordinary content', async () => {
    const blocks = await blocksOf(
      '<main><table><tr><td><h2>Our story</h2><p>We started in a garage in 2019.</p></td></tr></table></main>',
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 2, text: 'Our story' },
      { kind: 'text', text: 'We started in a garage in 2019.' },
    ]);
  });

  it('returns no blocks for a page without text', async () => {
    const page = await extractPage({
      url: 'https://acme.example/empty',
      contentType: 'text/html',
      body: html('<script>var x = 1;</script><nav><a href="/">Home</a></nav>', '<title></title>'),
    });
    expect(page.blocks).toEqual([]);
    expect(page.title).toBeNull();
  });

  it('reads a fragment without html, head or body', async () => {
    const page = await extractPage({
      url: 'https://acme.example/',
      contentType: 'text/html',
      body: '<h1>Hello</h1><p>Just a fragment of a page.</p>',
    });
    expect(page.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Hello' },
      { kind: 'text', text: 'Just a fragment of a page.' },
    ]);
    expect(page.title).toBe('Hello');
  });

  it('reads a document whose body tag is omitted', async () => {
    const page = await extractPage({
      url: 'https://acme.example/',
      contentType: 'text/html',
      body: '<!DOCTYPE html><html><head><title>No body tag</title></head><p>Body tags are optional in HTML.</p></html>',
    });
    expect(page.title).toBe('No body tag');
    expect(page.blocks).toEqual([{ kind: 'text', text: 'Body tags are optional in HTML.' }]);
  });

  it('reads XHTML served as application/xhtml+xml', async () => {
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>XHTML page</title></head><body><main><p>Served as XHTML.</p></main></body></html>`;
    const page = await extractPage({ url: 'https://acme.example/x', contentType: 'application/xhtml+xml', body });
    expect(page.title).toBe('XHTML page');
    expect(page.blocks).toEqual([{ kind: 'text', text: 'Served as XHTML.' }]);
  });
});

describe('extractPage: title and canonical URL', () => {
  it.each([
    [
      'takes the title from <title>',
      '<title> Pricing  | Acme </title><meta property="og:title" content="OG">',
      '<h1>H1</h1>',
      'Pricing | Acme',
    ],
    [
      'takes the title from og:title without <title>',
      '<meta property="og:title" content="Acme pricing">',
      '<h1>H1</h1>',
      'Acme pricing',
    ],
    [
      'takes the title from the first h1 without either',
      '',
      '<main><h1>Plans and <em>pricing</em></h1><p>Text.</p></main>',
      'Plans and pricing',
    ],
    ['gives no title when the page has none', '', '<p>Text only.</p>', null],
  ])('%s', async (_name, head, body, want) => {
    expect(
      (await extractPage({ url: 'https://acme.example/', contentType: 'text/html', body: html(body, head) })).title,
    ).toBe(want);
  });

  it('resolves the canonical URL against the base URL', async () => {
    expect((await extract(blogArticle)).canonicalUrl).toBe('https://flowmail.example/blog/cut-bounce-rates');
    expect((await extract(marketingHome)).canonicalUrl).toBe('https://www.flowmail.example/');
  });

  it('ignores a canonical link that is not http(s) and a page without one', async () => {
    const page = (head: string) =>
      extractPage({ url: 'https://acme.example/a', contentType: 'text/html', body: html('<p>x</p>', head) });
    expect((await page('<link rel="canonical" href="javascript:alert(1)">')).canonicalUrl).toBeNull();
    expect((await page('<link rel="alternate" href="/fr/a">')).canonicalUrl).toBeNull();
    expect((await page('<link rel="Canonical" href="/a?x=1">')).canonicalUrl).toBe('https://acme.example/a?x=1');
  });
});

describe('extractPage: links', () => {
  it('lists the links of the whole page resolved, without fragments, repeats, nofollow or non-http schemes', async () => {
    expect((await extract(marketingHome)).links).toEqual([
      'https://www.flowmail.example/legal/cookies',
      'https://www.flowmail.example/',
      'https://www.flowmail.example/features',
      'https://www.flowmail.example/pricing',
      'https://www.flowmail.example/blog/',
      'https://docs.flowmail.example/getting-started',
      'https://www.flowmail.example/login',
      'https://www.flowmail.example/signup?plan=trial&utm_source=hero',
      'https://www.flowmail.example/about',
      'https://www.flowmail.example/legal/privacy',
      'https://www.flowmail.example/legal/terms',
    ]);
  });

  it('resolves relative links against <base href>', async () => {
    const links = (await extract(blogArticle)).links;
    expect(links).toContain('https://flowmail.example/docs/deliverability');
    expect(links).toContain('https://datatracker.ietf.org/doc/html/rfc5321');
    expect(links.every((l) => !l.includes('#'))).toBe(true);
  });

  it('deduplicates links that differ only by fragment, keeping the first position', async () => {
    const page = await extractPage({
      url: 'https://acme.example/',
      contentType: 'text/html',
      body: html(
        '<a href="/b">b</a><a href="/a#one">a</a><a href="/b#two">b again</a><a href="HTTPS://ACME.example/a">a again</a>',
      ),
    });
    expect(page.links).toEqual(['https://acme.example/b', 'https://acme.example/a']);
  });

  it('follows no links from a page whose robots meta says nofollow', async () => {
    const page = await extractPage({
      url: 'https://acme.example/',
      contentType: 'text/html',
      body: html('<a href="/a">a</a>', '<meta name="robots" content="noindex, nofollow">'),
    });
    expect(page.links).toEqual([]);
  });
});
