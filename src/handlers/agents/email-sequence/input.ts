// The email-sequence-generator's input: validated like any operation's body, and listed in the store as
// its JSON Schema.
import { z } from 'zod';

export const emailSequenceInput = z
  .object({
    goal: z.string().trim().min(3).max(500).describe('What the sequence is for, e.g. "book demos of Acme Rocket".'),
    audience: z
      .string()
      .trim()
      .min(2)
      .max(300)
      .describe('Who the leads are, e.g. "operations managers at logistics firms".'),
    knowledge_source_ids: z
      .array(z.string().regex(/^ks_[0-9a-z]{26}$/))
      .min(1)
      .max(20)
      .optional()
      .describe('Sources to draw from; default: every ready source.'),
    steps: z.number().int().min(1).max(6).default(3).describe('Number of emails.'),
    tone: z.enum(['friendly', 'professional', 'direct']).default('professional'),
    call_to_action: z
      .string()
      .trim()
      .min(3)
      .max(200)
      .default('a 15-minute call next week')
      .describe('What each email asks for.'),
    sender_connector_id: z
      .string()
      .regex(/^conn_[0-9a-z]{26}$/)
      .optional()
      .describe("Default: the workspace's connected Gmail account, else one your human connects."),
    sequence_name: z.string().trim().min(1).max(200).optional(),
    schedule: z
      .object({
        timezone: z.string().min(1).max(64),
        days: z
          .array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']))
          .min(1)
          .max(7),
        start_hour: z.number().int().min(0).max(23),
        end_hour: z.number().int().min(1).max(24),
      })
      .partial()
      .strict()
      .optional()
      .describe('The sending window; default: weekdays 9 to 17 UTC. The approved sequence sends only inside it.'),
    daily_limit: z.number().int().min(1).max(2000).optional().describe('Most first emails a day; default 50.'),
  })
  .strict();

export type EmailSequenceInput = z.output<typeof emailSequenceInput>;
