// The ad-copy-writer's input: a draft campaign to write for, or a goal alone (the creatives are then the
// run's output, to pass to create_ad_campaign); optionally which knowledge to draw on. Exactly one of
// campaign_id and goal (checked in the definition's precheck, with a clearer message than a schema's).
import { z } from 'zod';

export const CALLS_TO_ACTION = [
  'LEARN_MORE',
  'SIGN_UP',
  'SHOP_NOW',
  'CONTACT_US',
  'BOOK_TRAVEL',
  'DOWNLOAD',
  'GET_QUOTE',
  'SUBSCRIBE',
] as const;

export const adCopyInput = z
  .object({
    campaign_id: z
      .string()
      .regex(/^adc_[0-9a-z]{26}$/)
      .optional()
      .describe('A draft campaign whose creatives are written (goal: its name).'),
    goal: z
      .string()
      .trim()
      .min(3)
      .max(300)
      .optional()
      .describe('What the ads are for, without a campaign: the creatives are the run output.'),
    knowledge_source_ids: z
      .array(z.string().regex(/^ks_[0-9a-z]{26}$/))
      .min(1)
      .max(20)
      .optional()
      .describe('Sources to draw from; default: every ready source.'),
    count: z.number().int().min(1).max(5).default(3).describe('Number of creatives.'),
    call_to_action: z.enum(CALLS_TO_ACTION).default('LEARN_MORE').describe("The creatives' button."),
  })
  .strict();

export type AdCopyInput = z.output<typeof adCopyInput>;
