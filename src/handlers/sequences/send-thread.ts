// Where a step sent in the thread goes: a reply (RFC 5322 §3.6.4) to the enrollment's previous message, in
// that message's Gmail thread, so the lead sees one conversation and their answer lands where the sync looks.
import type { MessageRow } from './sequence-messages-data.ts';
import type { SequenceStep } from './sequences-data.ts';
import type { EarlierMessage } from './sequence-sends-data.ts';

export interface ThreadPlace {
  /** The provider's thread to send into. */
  threadId?: string;
  /** The Message-ID of the message this one follows. */
  inReplyTo?: string;
  /** Every earlier Message-ID of the enrollment, oldest first. */
  references?: string[];
}

/** `earlier`: the enrollment's messages before `m`, in step order. */
export function threadPlace(m: MessageRow, step: SequenceStep, earlier: EarlierMessage[]): ThreadPlace {
  if (!step.in_thread || m.step === 1) return {};
  const previous = earlier.at(-1);
  // The message this one follows must be known to have gone out. One that never went (failed, cancelled) has
  // no Message-ID a reply could point at, and an uncertain one may never have arrived: answering it would
  // show the lead a "Re:" to nothing. Such a step starts a thread of its own instead.
  if (!previous || previous.step !== m.step - 1 || previous.status !== 'sent' || !previous.message_id_header) return {};
  return {
    // A message sent before threads were recorded has no thread id: the headers alone still thread it in the
    // lead's mail client, and Gmail files it by them and the subject.
    threadId: previous.thread_id ?? undefined,
    inReplyTo: previous.message_id_header,
    references: earlier.flatMap((e) => (e.status === 'sent' && e.message_id_header ? [e.message_id_header] : [])),
  };
}
