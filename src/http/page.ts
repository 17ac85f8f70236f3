// The HTML of the pages the service renders itself (the OAuth callback, unsubscribe, webinar registration,
// the sandbox consent pages; the blog shares the header and the stylesheet) and the one escaper every
// hand-built HTML or XML string uses: Hono's (`& < > " '`). No script, no inline style (the page CSP forbids
// both), styled by the service's own page.css (page-style.ts), the admin panel's look: the product or the
// workspace the page speaks for at the top, one centred card. Sandbox pages say so twice: a label beside the
// name and a banner.
import { html, raw } from 'hono/html';
import { escapeToBuffer, type HtmlEscapedString } from 'hono/utils/html';
import { PAGE_STYLE_PATH } from './page-style.ts';

/** The name the pages carry when no workspace is theirs (the admin panel's brand). */
export const PRODUCT_NAME = 'Agent Platform';

/** A value escaped for HTML text or an attribute (and for XML, whose five entities are the same). */
export function escapeHtml(value: string): string {
  const buffer: string[] = [''];
  escapeToBuffer(value, buffer);
  return buffer[0];
}

export interface PageOptions {
  title: string;
  /** Trusted HTML: build it with escapeHtml around every value. */
  body: string;
  sandbox?: boolean;
  /** The workspace (the sender, the organiser) the page speaks for; the product's name when none. */
  brand?: string | null;
}

const sandboxBanner =
  '<p role="note" class="sandbox-banner"><strong>SANDBOX</strong> — no real account is involved: this service is playing the provider, and nothing leaves it.</p>';

/** Markup built from strings only is complete at once; a promise here would be a programming error. */
function settled(markup: HtmlEscapedString | Promise<HtmlEscapedString>): string {
  if (markup instanceof Promise) throw new Error('a page was built from a promise');
  return markup.toString();
}

/** The line above the card: a mark, the name, and the sandbox label. `href` makes the name a link home. */
export function pageBrand(options: { brand?: string | null; sandbox?: boolean; href?: string }): string {
  const name = escapeHtml(options.brand || PRODUCT_NAME);
  const label = options.href ? `<a href="${escapeHtml(options.href)}">${name}</a>` : name;
  const sandbox = options.sandbox ? ' <span class="sandbox-label">sandbox</span>' : '';
  return `<header class="page-brand"><span class="page-mark" aria-hidden="true"></span><span class="page-name">${label}</span>${sandbox}</header>`;
}

export function renderPage(options: PageOptions): string {
  return settled(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title}${options.brand ? ` · ${options.brand}` : ''}</title>
<link rel="stylesheet" href="${PAGE_STYLE_PATH}">
</head>
<body>
${raw(pageBrand(options))}
${raw(options.sandbox ? sandboxBanner : '')}
<main>
<h1>${options.title}</h1>
${raw(options.body)}
</main>
</body>
</html>
`);
}
