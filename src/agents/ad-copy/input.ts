// The ad-copy-writer's input: a draft campaign to write for, and optionally what the ads are for and
// which knowledge to draw on.
import { z } from 'zod';

export const adCopyInput = z
  .object({
    campaign_id: z.string().regex(/^adc_[0-9a-z]{26}$/).describe('The draft campaign whose creatives are written.'),
    goal: z.string().trim().min(3).max(300).optional().describe("What the ads are for; default: the campaign's name."),
    knowledge_source_ids: z.array(z.string().regex(/^ks_[0-9a-z]{26}$/)).min(1).max(20).optional().describe('Sources to draw from; default: every ready source.'),
    count: z.number().int().min(1).max(5).default(3).describe('Number of creatives.'),
  })
  .strict();

export type AdCopyInput = z.output<typeof adCopyInput>;
