// The store's blog-post-writer: from the workspace's knowledge, a draft blog post a person publishes.
import type { AgentDefinition } from '../agent-definition.ts';
import { blogPostInput, type BlogPostInput } from './input.ts';
import { checkStep, createStep, retrieveStep, writeStep } from './steps.ts';

export const blogPostWriter: AgentDefinition<BlogPostInput> = {
  slug: 'blog-post-writer',
  name: 'Blog post writer',
  description:
    "Writes a blog post on a topic from the workspace's ingested knowledge (title, slug, meta description, outline, Markdown body; each section cites the page it drew on) and saves it as a draft blog_post. Review it with get_blog_post, then publish_blog_post.",
  category: 'content',
  version: '1.0.0',
  input: blogPostInput,
  produces: ['blog_post'],
  requiredConnectors: [],
  steps: [retrieveStep, writeStep, checkStep, createStep],
};
