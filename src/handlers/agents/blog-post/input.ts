// The blog-post-writer's input: validated like any operation's body (generate_blog_post checks it through
// the contract as well), and listed in the store as its JSON Schema.
import { z } from 'zod';

export const blogPostInput = z
  .object({
    topic: z
      .string()
      .trim()
      .min(3)
      .max(300)
      .describe('What the post is about, e.g. "reusable rockets for small satellite teams".'),
    keywords: z
      .array(z.string().trim().min(2).max(60))
      .max(10)
      .optional()
      .describe('Words the post should draw on; they also steer which knowledge is used.'),
    audience: z
      .string()
      .trim()
      .min(2)
      .max(300)
      .optional()
      .describe('Who reads it, e.g. "founders of satellite startups".'),
    length: z.enum(['short', 'medium', 'long']).default('medium').describe('short: 2 sections, medium: 3, long: 5.'),
    knowledge_source_ids: z
      .array(z.string().regex(/^ks_[0-9a-z]{26}$/))
      .min(1)
      .max(20)
      .optional()
      .describe('Sources to draw from; default: every ready source.'),
  })
  .strict();

export type BlogPostInput = z.output<typeof blogPostInput>;

export const SECTIONS: Record<BlogPostInput['length'], number> = { short: 2, medium: 3, long: 5 };
