// Which words a claimed message goes out with (phase 1 of a send, see send-prepare.ts): the variant stored on
// it when it was made, or, when an edit made while the sequence was paused took that variant away, the
// choice over the step as it is now (then recorded on the message with its move to `sending`, so it says what
// was sent). A version without a subject answers the thread with the subject of the step-1 variant this
// enrollment got.
import type { MessageRow } from './sequence-messages-data.ts';
import type { SequenceRow, SequenceStep } from './sequences-data.ts';
import { messageTemplate, variantTexts, variantToSend } from './variants.ts';

export function templateToSend(
  sequence: SequenceRow,
  step: SequenceStep,
  m: MessageRow,
  firstStepVariant: number | null,
): { variant: number | null; template: { subject: string; body: string } } {
  const variant = variantToSend(sequence, m.enrollment_id, m.step, m.variant);
  const answersFirst = variantTexts(step, variant).subject === null && Boolean(sequence.steps[0]?.variants?.length);
  return { variant, template: messageTemplate(sequence.steps, step, variant, answersFirst ? firstStepVariant : null) };
}
