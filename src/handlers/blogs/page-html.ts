// The HTML of a workspace's public blog: the index, a post, and the not-found page. Every value is
// escaped; the post's body is the sanitized rendering of its Markdown. Styled like every page the service
// renders itself (page.css, the workspace's name above a card); the pages carry their own CSP: no script at
// all, styles from this origin only, images from https only, never framed.
import { escapeHtml, pageBrand } from '../../http/page.ts';
import { PAGE_STYLE_PATH } from '../../http/page-style.ts';

export const blogContentSecurityPolicy = [
  "default-src 'none'",
  "style-src 'self'",
  'img-src https: data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const blogPageHeaders = {
  'Content-Security-Policy': blogContentSecurityPolicy,
  'Cache-Control': 'public, no-cache',
};

/** A preview may be framed by this origin only: the admin panel shows it in a sandboxed iframe. */
export const blogPreviewHeaders = {
  'Content-Security-Policy': blogContentSecurityPolicy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
  'X-Frame-Options': 'SAMEORIGIN',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
};

export interface BlogSite {
  name: string;
  slug: string;
  indexUrl: string;
  feedUrl: string;
}

interface Head {
  title: string;
  description: string;
  canonical: string;
  type: 'website' | 'article';
  publishedAt?: Date | null;
}

function layout(site: BlogSite, head: Head, main: string, options: { robots?: string } = {}): string {
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeHtml(content)}">`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="strict-origin-when-cross-origin">
${options.robots ? `<meta name="robots" content="${options.robots}">\n` : ''}<title>${escapeHtml(head.title)}</title>
<meta name="description" content="${escapeHtml(head.description)}">
<link rel="canonical" href="${escapeHtml(head.canonical)}">
<link rel="alternate" type="application/atom+xml" title="${escapeHtml(site.name)}" href="${escapeHtml(site.feedUrl)}">
${meta('og:type', head.type)}
${meta('og:title', head.title)}
${meta('og:description', head.description)}
${meta('og:url', head.canonical)}
${meta('og:site_name', site.name)}
${head.publishedAt ? `${meta('article:published_time', head.publishedAt.toISOString())}\n` : ''}<meta name="twitter:card" content="summary">
<link rel="stylesheet" href="${PAGE_STYLE_PATH}">
</head>
<body class="blog">
${pageBrand({ brand: site.name, href: site.indexUrl })}
<main>
${main}
</main>
<footer><a href="${escapeHtml(site.feedUrl)}">Feed</a></footer>
</body>
</html>
`;
}

const day = (d: Date) => `<time datetime="${d.toISOString()}">${d.toISOString().slice(0, 10)}</time>`;

export interface PostSummary {
  title: string;
  description: string;
  url: string;
  publishedAt: Date;
}

export function renderIndexPage(site: BlogSite, posts: PostSummary[]): string {
  const items = posts.map(
    (p) =>
      `<li><h2><a href="${escapeHtml(p.url)}">${escapeHtml(p.title)}</a></h2><p class="meta">${day(p.publishedAt)}</p><p>${escapeHtml(p.description)}</p></li>`,
  );
  const main = `<h1>${escapeHtml(site.name)}</h1>\n${items.length ? `<ol class="posts">\n${items.join('\n')}\n</ol>` : '<p>No posts yet.</p>'}`;
  return layout(
    site,
    { title: site.name, description: `Posts from ${site.name}.`, canonical: site.indexUrl, type: 'website' },
    main,
  );
}

/** `bodyHtml` must be the sanitized rendering of the post's Markdown (src/handlers/blogs/markdown.ts). */
export function renderPostPage(
  site: BlogSite,
  post: PostSummary & { bodyHtml: string },
  options: { preview?: boolean } = {},
): string {
  const banner = options.preview
    ? '<p class="meta preview-note"><strong>Preview</strong>: this post is not published; only people with this link see it.</p>\n'
    : '';
  const main = `${banner}<article>\n<h1>${escapeHtml(post.title)}</h1>\n<p class="meta">${day(post.publishedAt)}</p>\n${post.bodyHtml}</article>`;
  return layout(
    site,
    {
      title: `${post.title} · ${site.name}`,
      description: post.description,
      canonical: post.url,
      type: 'article',
      publishedAt: post.publishedAt,
    },
    main,
    { robots: options.preview ? 'noindex, nofollow' : undefined },
  );
}

export function renderNotFoundPage(site: BlogSite | null): string {
  const body =
    '<h1>Not found</h1>\n<p>There is no published post at this address. It may have been unpublished or moved.</p>';
  const fallback = site ?? { name: 'Blog', slug: '', indexUrl: '/', feedUrl: '/' };
  const main = site ? `${body}\n<p><a href="${escapeHtml(site.indexUrl)}">All posts</a></p>` : body;
  return layout(
    fallback,
    { title: 'Not found', description: 'No post here.', canonical: fallback.indexUrl, type: 'website' },
    main,
    { robots: 'noindex' },
  );
}
