// The HTML of the pages the service renders itself (the OAuth callback, the sandbox consent page):
// no script, no inline style (the page CSP forbids both), every value escaped, styled by the service's
// own page.css (page-style.ts). Sandbox pages carry a banner that says so.
import { PAGE_STYLE_PATH } from './page-style.ts';

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

export interface PageOptions {
  title: string;
  /** Trusted HTML: build it with escapeHtml around every value. */
  body: string;
  sandbox?: boolean;
}

export function renderPage(options: PageOptions): string {
  const banner = options.sandbox
    ? '<p role="note" class="sandbox-banner"><strong>SANDBOX</strong> — no real account is involved: this service is playing the provider, and nothing leaves it.</p>'
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${PAGE_STYLE_PATH}">
</head>
<body>
${banner}
<main>
<h1>${escapeHtml(options.title)}</h1>
${options.body}
</main>
</body>
</html>
`;
}
