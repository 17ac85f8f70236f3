// Turns a fetched page (HTML, plain text or Markdown) into its title, canonical URL, outgoing links
// and main text as heading and text blocks: the page's shape, and the choice of reader by media type
// (extract-html.ts for HTML, extract-text.ts for plain text and Markdown).
import { extractHtml } from './extract-html.ts';
import { extractMarkdown, plainBlocks } from './extract-text.ts';
import type { ExtractedPage } from './page-blocks.ts';

export class UnsupportedContentError extends Error {
  readonly code = 'unsupported_media_type' as const;
  constructor(readonly contentType: string) {
    super(`Content type ${contentType || '(none)'} cannot be read as text; expected HTML, plain text or Markdown.`);
    this.name = 'UnsupportedContentError';
  }
}

export async function extractPage(input: { url: string; contentType: string; body: string }): Promise<ExtractedPage> {
  const mediaType = input.contentType.split(';', 1)[0].trim().toLowerCase();
  switch (mediaType) {
    case 'text/html':
    case 'application/xhtml+xml':
      return extractHtml(input.url, input.body);
    case 'text/plain':
      return { url: input.url, title: null, canonicalUrl: null, blocks: plainBlocks(input.body), links: [] };
    case 'text/markdown':
    case 'text/x-markdown':
      return extractMarkdown(input.url, input.body);
    default:
      throw new UnsupportedContentError(input.contentType);
  }
}
