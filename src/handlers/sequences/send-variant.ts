// Which words a claimed message goes out with (phase 1 of a send, see send-prepare.ts): the variant stored on
// it when it was made, or, when an edit made while the sequence was paused took that variant away, the
// choice over the step as it is now (then recorded on the message, so it says what was sent). A version
// without a subject answers the thread with the subject of the step-1 variant this enrollment got.
import type { Queryable } from '../../db/queryable.ts';
import type { MessageRow } from './sequence-messages-data.ts';
import type { SequenceRow, SequenceStep } from './sequences-data.ts';
import { firstStepVariant, setMessageVariant } from './sequence-variants-data.ts';
import { messageTemplate, variantTexts, variantToSend } from './variants.ts';

export async function templateToSend(
  q: Queryable,
  sequence: SequenceRow,
  step: SequenceStep,
  m: MessageRow,
  now: Date,
): Promise<{ subject: string; body: string }> {
  const variant = variantToSend(sequence, m.enrollment_id, m.step, m.variant);
  if (variant !== m.variant) await setMessageVariant(q, m.workspace_id, m.id, variant, now);
  const answersFirst = variantTexts(step, variant).subject === null && Boolean(sequence.steps[0]?.variants?.length);
  const firstVariant = answersFirst ? await firstStepVariant(q, m.workspace_id, m.enrollment_id) : null;
  return messageTemplate(sequence.steps, step, variant, firstVariant);
}
