import { describe, expect, it } from 'vitest';
import { extractPage, UnsupportedContentError } from '../../../src/handlers/knowledge/extract.ts';

const url = 'https://acme.example/docs/notes.md';

describe('extractPage: plain text', () => {
  it('splits paragraphs on blank lines and makes no headings', async () => {
    const body =
      '# Not a heading\r\n\r\nFirst paragraph,\r\n  still the first.\r\n \t \r\nSecond   paragraph.\n\n\n\nThird.';
    const page = await extractPage({ url, contentType: 'text/plain; charset=utf-8', body });
    expect(page).toEqual({
      url,
      title: null,
      canonicalUrl: null,
      links: [],
      blocks: [
        { kind: 'text', text: '# Not a heading' },
        { kind: 'text', text: 'First paragraph,\nstill the first.' },
        { kind: 'text', text: 'Second paragraph.' },
        { kind: 'text', text: 'Third.' },
      ],
    });
  });

  it('returns no blocks for blank text', async () => {
    expect((await extractPage({ url, contentType: 'text/plain', body: ' \n\n\t\n' })).blocks).toEqual([]);
  });
});

const markdown = `---
title: Launch notes
draft: false
---

# Launch notes

The Roadrunner flies weekly. See [the schedule](/schedule#next) and <https://status.acme.example/>.

## Fuel ##

We burn methane and liquid oxygen.
Both are loaded in the last hour.

- Methane comes from a local supplier
- Oxygen is made on site
  - with a small air separation unit

\`\`\`bash
# this is a comment, not a heading
./launch --dry-run

./launch
\`\`\`

### C# tools

#hashtag is not a heading.

![diagram](/img/diagram.png) and [reference][ref].

[ref]: https://docs.acme.example/reference
`;

const page = await extractPage({ url, contentType: 'text/markdown; charset=utf-8', body: markdown });

describe('extractPage: Markdown', () => {
  it('turns ATX headings into heading blocks and splits the rest on blank lines', () => {
    expect(page.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Launch notes' },
      {
        kind: 'text',
        text: 'The Roadrunner flies weekly. See [the schedule](/schedule#next) and <https://status.acme.example/>.',
      },
      { kind: 'heading', level: 2, text: 'Fuel' },
      { kind: 'text', text: 'We burn methane and liquid oxygen.\nBoth are loaded in the last hour.' },
      {
        kind: 'text',
        text: '- Methane comes from a local supplier\n- Oxygen is made on site\n  - with a small air separation unit',
      },
      { kind: 'text', text: '```bash\n# this is a comment, not a heading\n./launch --dry-run\n\n./launch\n```' },
      { kind: 'heading', level: 3, text: 'C# tools' },
      { kind: 'text', text: '#hashtag is not a heading.' },
      { kind: 'text', text: '![diagram](/img/diagram.png) and [reference][ref].' },
      { kind: 'text', text: '[ref]: https://docs.acme.example/reference' },
    ]);
  });

  it('takes the first h1 as the title and leaves out the front matter', () => {
    expect(page.title).toBe('Launch notes');
    expect(page.blocks.map((b) => b.text).join('\n')).not.toContain('draft: false');
  });

  it('lists inline links, autolinks and reference definitions but not images', () => {
    expect(page.links).toEqual([
      'https://acme.example/schedule',
      'https://status.acme.example/',
      'https://docs.acme.example/reference',
    ]);
  });

  it('keeps an unclosed code fence as text', async () => {
    const fenced = await extractPage({
      url,
      contentType: 'text/x-markdown',
      body: 'Intro.\n\n~~~\ncode\n\n# still code',
    });
    expect(fenced.blocks).toEqual([
      { kind: 'text', text: 'Intro.' },
      { kind: 'text', text: '~~~\ncode\n\n# still code' },
    ]);
  });
});

describe('extractPage: other content types', () => {
  it.each(['application/pdf', 'image/png', 'application/json', 'text/csv', ''])(
    'refuses %j with unsupported_media_type',
    async (contentType) => {
      const error = await (async () => {
        try {
          await extractPage({ url, contentType, body: 'x' });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(UnsupportedContentError);
      expect(error).toMatchObject({ code: 'unsupported_media_type', contentType });
    },
  );

  it('reads the media type case-insensitively', async () => {
    expect(
      (await extractPage({ url, contentType: 'Text/HTML; Charset=UTF-8', body: '<p>Hi there.</p>' })).blocks,
    ).toEqual([{ kind: 'text', text: 'Hi there.' }]);
  });
});
