// Blog posts as the contract shows them, and the public addresses of a workspace's blog.
import type { BlogPostRow } from './blog-posts-data.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const base = (publicBaseUrl: string) => publicBaseUrl.replace(/\/$/, '');

export const blogPreviewUrl = (publicBaseUrl: string, token: string) => `${base(publicBaseUrl)}/blog-preview/${token}`;
export const blogIndexUrl = (publicBaseUrl: string, workspaceSlug: string) =>
  `${base(publicBaseUrl)}/blog/${workspaceSlug}`;
export const blogPostUrl = (publicBaseUrl: string, workspaceSlug: string, postSlug: string) =>
  `${blogIndexUrl(publicBaseUrl, workspaceSlug)}/${postSlug}`;

export interface BlogPostView {
  row: BlogPostRow;
  /** Where the post is (or will be) public. */
  url: string;
  /** A signed link to the post's page as it is now, whatever its status (for a person to review). */
  previewUrl: string;
}

export const blogPostBody = ({ row: p, url, previewUrl }: BlogPostView) => ({
  id: p.id,
  slug: p.slug,
  title: p.title,
  meta_description: p.meta_description,
  outline: p.outline.map((s) => ({ ...s })),
  body_markdown: p.body_markdown,
  sources: p.sources.map((s) => ({ ...s })),
  status: p.status,
  url,
  preview_url: previewUrl,
  publish_at: iso(p.publish_at),
  published_at: iso(p.published_at),
  agent_run_id: p.agent_run_id,
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});

/** What events carry: the post without its body (get_blog_post has it). */
export const blogPostEventData = ({ row: p, url }: BlogPostView) => ({
  id: p.id,
  slug: p.slug,
  title: p.title,
  status: p.status,
  url,
  publish_at: iso(p.publish_at),
  published_at: iso(p.published_at),
});
