// A post's Markdown as the HTML its public page shows. Two kept libraries, each enough on its own for
// the common cases, together for the rest: markdown-it with `html: false` writes any raw HTML in the
// Markdown as text and refuses `javascript:`/`vbscript:`/`data:` link targets; sanitize-html then keeps
// only an allowlist of tags and attributes (no event handlers, no style, no iframes) and http(s)/mailto
// links, and marks every link as one the site does not vouch for. The page's CSP allows no script at all.
// Both load at the first page rendered (src/load-once.ts).
import type { IOptions } from 'sanitize-html';
import { loadOnce } from '../../load-once.ts';

type Options = Omit<IOptions, 'transformTags'>;

const allowed: Options = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'strong',
    'em',
    's',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'code',
    'pre',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  // No style attribute anywhere (markdown-it writes table alignment as one): the page's CSP would refuse it.
  allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** The function that renders a post's Markdown as its page's HTML; the first call loads the two libraries. */
export const markdownRenderer = loadOnce(async (): Promise<(text: string) => string> => {
  const [{ default: MarkdownIt }, { default: sanitizeHtml }] = await Promise.all([
    import('markdown-it'),
    import('sanitize-html'),
  ]);
  const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const options: IOptions = {
    ...allowed,
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer ugc' }) },
  };
  return (text) => sanitizeHtml(markdown.render(text), options);
});
