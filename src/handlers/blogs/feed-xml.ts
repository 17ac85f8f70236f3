// A workspace blog's Atom feed (RFC 4287) and sitemap (sitemaps.org 0.9), with absolute URLs. Each entry's
// content is the same sanitized HTML the post page shows, escaped as Atom's `type="html"` requires.
import { escapeHtml } from '../../http/page.ts';
import type { BlogSite, PostSummary } from './page-html.ts';

export interface FeedEntry extends PostSummary {
  updatedAt: Date;
  bodyHtml: string;
}

export function renderAtomFeed(site: BlogSite, entries: FeedEntry[]): string {
  const updated = entries.reduce(
    (latest, e) => (e.updatedAt > latest ? e.updatedAt : latest),
    entries[0]?.updatedAt ?? new Date(0),
  );
  const items = entries.map(
    (e) => `<entry>
<title>${escapeHtml(e.title)}</title>
<id>${escapeHtml(e.url)}</id>
<link rel="alternate" type="text/html" href="${escapeHtml(e.url)}"/>
<published>${e.publishedAt.toISOString()}</published>
<updated>${e.updatedAt.toISOString()}</updated>
<summary>${escapeHtml(e.description)}</summary>
<content type="html">${escapeHtml(e.bodyHtml)}</content>
</entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>${escapeHtml(site.name)}</title>
<id>${escapeHtml(site.indexUrl)}</id>
<link rel="alternate" type="text/html" href="${escapeHtml(site.indexUrl)}"/>
<link rel="self" type="application/atom+xml" href="${escapeHtml(site.feedUrl)}"/>
<updated>${updated.toISOString()}</updated>
<author><name>${escapeHtml(site.name)}</name></author>
${items.join('\n')}
</feed>
`;
}

export function renderSitemap(site: BlogSite, entries: Array<{ url: string; updatedAt: Date }>): string {
  const urls = [
    `<url><loc>${escapeHtml(site.indexUrl)}</loc></url>`,
    ...entries.map((e) => `<url><loc>${escapeHtml(e.url)}</loc><lastmod>${e.updatedAt.toISOString()}</lastmod></url>`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join('\n')}
</urlset>
`;
}
