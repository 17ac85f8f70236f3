// Realistic HTML pages for the ingest row, built in the bench: a blog post, a marketing landing page
// and a documentation guide, each in the chrome a real site wraps around its content (head with
// styles and scripts, a cookie banner, a header with navigation, a newsletter aside, a footer of
// link columns), with varied text (knowledge-text.ts) and a size drawn between 5 and 30 KB.
import { createRandom, heading, paragraph, personName, sentence, TOPICS, type Random } from './knowledge-text.ts';

export interface BenchPage {
  url: string;
  html: string;
}

const SITE = 'https://www.example-saas.test';
const NAV = [
  'Product',
  'Solutions',
  'Pricing',
  'Customers',
  'Resources',
  'Blog',
  'Docs',
  'Company',
  'Careers',
  'Contact',
  'Log in',
  'Start free trial',
];
const FOOTER_COLUMNS = [
  ['Product', ['Overview', 'Features', 'Integrations', 'Security', 'Changelog', 'Status']],
  ['Resources', ['Guides', 'Webinars', 'Templates', 'Case studies', 'Community', 'API reference']],
  ['Company', ['About', 'Careers', 'Press', 'Partners', 'Legal', 'Privacy']],
] as const;

type Template = (r: Random, topic: readonly string[], budget: number) => { title: string; main: string };
const TEMPLATES: Array<[string, Template]> = [
  ['blog', blogPost],
  ['product', landingPage],
  ['docs', docsGuide],
];

/** `count` pages, the same for the same seed; templates in turn, sizes uniform in 5–30 KB. */
export function buildPages(count: number, seed = 1): BenchPage[] {
  const r = createRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const [kind, template] = TEMPLATES[i % TEMPLATES.length];
    const topic = r.pick(TOPICS);
    const url = `${SITE}/${kind}/${slug(topic[0])}-${i}`;
    const target = r.int(5, 30) * 1024;
    const chrome = pageChrome(r, url, 'x', '');
    const { title, main } = template(r, topic, Math.max(1024, target - chrome.length));
    return { url, html: pageChrome(r, url, title, main) };
  });
}

function pageChrome(r: Random, url: string, title: string, main: string): string {
  const nav = NAV.map((label) => `<li><a href="/${slug(label)}">${label}</a></li>`).join('');
  const columns = FOOTER_COLUMNS.map(
    ([name, links]) =>
      `<div class="footer-col"><h4>${name}</h4><ul>${links.map((l) => `<li><a href="/${slug(l)}">${l}</a></li>`).join('')}</ul></div>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} | Example SaaS</title>
<meta name="description" content="${escape(sentence(r, []))}">
<meta property="og:title" content="${escape(title)}"><link rel="canonical" href="${url}">
<link rel="stylesheet" href="/assets/site.3f9a1c.css"><link rel="icon" href="/favicon.ico">
<style>.hero{padding:64px 0}.btn{display:inline-block;padding:12px 20px;border-radius:6px}.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:24px}</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-BENCH0001');</script>
</head>
<body class="page">
<div id="cookie-consent" class="cookie-banner" role="dialog"><p>We use cookies to improve your experience and measure our marketing. <a href="/privacy">Learn more</a></p><button>Accept all</button><button>Reject</button></div>
<header class="site-header"><a class="logo" href="/"><img src="/logo.svg" alt="Example SaaS"></a><nav aria-label="Main"><ul>${nav}</ul></nav></header>
<main id="content">
${main}
</main>
<aside class="newsletter-signup"><h3>Get the newsletter</h3><p>${sentence(r, [])}</p><form action="/subscribe"><input type="email" placeholder="you@company.com"><button>Subscribe</button></form></aside>
<footer class="site-footer">
${columns}
<p>© 2025 Example SaaS, Inc. All rights reserved. <a href="/terms">Terms</a> · <a href="/privacy">Privacy</a></p>
</footer>
<script src="/assets/app.8d2e41.js" defer></script>
</body>
</html>
`;
}

/** Paragraph HTML with the odd link, bold and italic, as editors write it. */
function richParagraph(r: Random, topic: readonly string[]): string {
  return `<p>${paragraph(r, topic)
    .split(' ')
    .map((word) => {
      const u = r.next();
      return u < 0.015
        ? `<a href="/blog/${slug(word)}">${word}</a>`
        : u < 0.03
          ? `<strong>${word}</strong>`
          : u < 0.04
            ? `<em>${word}</em>`
            : word;
    })
    .join(' ')}</p>`;
}

function list(r: Random, topic: readonly string[], tag: 'ul' | 'ol' = 'ul'): string {
  const items = Array.from({ length: r.int(3, 7) }, () => `<li>${sentence(r, topic)}</li>`);
  return `<${tag}>${items.join('')}</${tag}>`;
}

/** Sections from `section` until the content reaches `budget` characters. */
function fill(budget: number, section: () => string): string {
  const parts: string[] = [];
  let size = 0;
  while (size < budget) {
    const part = section();
    parts.push(part);
    size += part.length;
  }
  return parts.join('\n');
}

function blogPost(r: Random, topic: readonly string[], budget: number) {
  const title = heading(r, topic);
  const body = fill(budget - 600, () => {
    const parts = [`<h2>${heading(r, topic)}</h2>`, richParagraph(r, topic), richParagraph(r, topic)];
    if (r.next() < 0.4) parts.push(list(r, topic));
    if (r.next() < 0.2)
      parts.push(`<blockquote><p>${sentence(r, topic)}</p><cite>${personName(r)}</cite></blockquote>`);
    if (r.next() < 0.3) parts.push(`<h3>${heading(r, topic)}</h3>`, richParagraph(r, topic));
    if (r.next() < 0.15)
      parts.push(
        `<figure><img src="/images/${slug(topic[0])}.png" alt=""><figcaption>${sentence(r, topic)}</figcaption></figure>`,
      );
    return parts.join('\n');
  });
  const main = `<article class="post">
<h1>${title}</h1>
<p class="byline">By <a href="/authors/${r.int(1, 40)}">${personName(r)}</a> · <time datetime="2025-03-14">March 14, 2025</time> · 8 min read</p>
${richParagraph(r, topic)}
${body}
<div class="share-buttons"><a href="https://twitter.com/share">Share</a> <a href="https://www.linkedin.com/shareArticle">LinkedIn</a></div>
</article>
<aside class="related"><h3>Related posts</h3><ul><li><a href="/blog/one">${heading(r, topic)}</a></li><li><a href="/blog/two">${heading(r, topic)}</a></li></ul></aside>`;
  return { title, main };
}

function landingPage(r: Random, topic: readonly string[], budget: number) {
  const title = heading(r, topic);
  const feature = () =>
    `<div class="feature"><h3>${heading(r, topic)}</h3>${richParagraph(r, topic)}<a href="/features">Learn more →</a></div>`;
  const body = fill(budget - 800, () => {
    const kind = r.int(0, 3);
    if (kind === 0)
      return `<section class="features"><h2>${heading(r, topic)}</h2><div class="grid">${feature()}${feature()}${feature()}</div></section>`;
    if (kind === 1)
      return `<section class="testimonial"><blockquote><p>${paragraph(r, topic, 2)}</p><footer>${personName(r)}, VP Sales</footer></blockquote></section>`;
    if (kind === 2)
      return `<section class="faq"><h2>Frequently asked questions</h2><h3>${sentence(r, topic).replace(/\.$/, '?')}</h3>${richParagraph(r, topic)}<h3>${sentence(r, topic).replace(/\.$/, '?')}</h3>${richParagraph(r, topic)}</section>`;
    return `<section class="plans"><h2>${heading(r, topic)}</h2>${list(r, topic)}${richParagraph(r, topic)}</section>`;
  });
  const main = `<section class="hero"><h1>${title}</h1><p class="lead">${paragraph(r, topic, 2)}</p><a class="btn" href="/signup">Start free trial</a> <a class="btn" href="/demo">Book a demo</a></section>
<section class="logos"><p>Trusted by 4,000+ teams</p><img src="/logos/a.svg" alt="Acme"><img src="/logos/b.svg" alt="Globex"></section>
${body}
<section class="cta"><h2>Ready to get started?</h2><p>${sentence(r, topic)}</p><a class="btn" href="/signup">Try it free</a></section>`;
  return { title, main };
}

function docsGuide(r: Random, topic: readonly string[], budget: number) {
  const title = heading(r, topic);
  const sidebar = Array.from(
    { length: 14 },
    (_, i) => `<li><a href="/docs/page-${i}">${heading(r, topic)}</a></li>`,
  ).join('');
  const body = fill(budget - 1200, () => {
    const parts = [`<h2>${heading(r, topic)}</h2>`, richParagraph(r, topic)];
    if (r.next() < 0.35) parts.push(list(r, topic, 'ol'));
    if (r.next() < 0.3)
      parts.push(
        `<pre><code>curl -X POST ${SITE}/api/v1/${slug(topic[0])} \\\n  -H "Authorization: Bearer $TOKEN" \\\n  -d '{"name": "${topic[1]}", "limit": ${r.int(1, 100)}}'</code></pre>`,
      );
    if (r.next() < 0.25) {
      const rows = Array.from(
        { length: r.int(2, 5) },
        () =>
          `<tr><td><code>${topic[r.int(0, topic.length - 1)]}</code></td><td>string</td><td>${sentence(r, topic)}</td></tr>`,
      ).join('');
      parts.push(
        `<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`,
      );
    }
    parts.push(`<h3>${heading(r, topic)}</h3>`, richParagraph(r, topic));
    return parts.join('\n');
  });
  const main = `<div class="docs-layout"><aside class="docs-sidebar"><nav aria-label="Docs"><ul>${sidebar}</ul></nav></aside>
<article class="docs-content"><h1>${title}</h1>${richParagraph(r, topic)}
${body}
<p class="edit"><a href="https://github.com/example/docs">Edit this page</a> · Was this page helpful? <button>Yes</button><button>No</button></p></article></div>`;
  return { title, main };
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}
