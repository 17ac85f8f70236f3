// Checks and fills in a sequence's editable fields: steps numbered in order with known variables, a real
// time zone and a window that is not empty, and senders that are Gmail connectors of the workspace.
import { findConnectors } from '../connectors/connectors-data.ts';
import { isMailbox } from '../connectors/mailbox-sending.ts';
import type { SequenceFields, SequenceSchedule, SequenceStep } from './sequences-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import { ApiError, type FieldError } from '../../errors.ts';
import { parseVariables } from './template.ts';

export interface StepInput {
  wait_days?: number;
  subject?: string;
  body: string;
  in_thread?: boolean;
}

export interface SequenceInput {
  name?: string;
  sender_connector_id?: string | null;
  sender_connector_ids?: string[];
  schedule?: Partial<SequenceSchedule>;
  daily_limit?: number;
  steps?: StepInput[];
  stop_on_reply?: boolean;
  stop_on_auto_reply?: boolean;
  auto_reply_pause_days?: number;
  stop_for_company?: boolean;
}

export const DEFAULT_SCHEDULE: SequenceSchedule = {
  timezone: 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  start_hour: 9,
  end_hour: 17,
};
const DAY_ORDER = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export function validTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

function schedule(
  input: Partial<SequenceSchedule> | undefined,
  base: SequenceSchedule,
  errors: FieldError[],
): SequenceSchedule {
  const s = { ...base, ...input };
  if (!validTimezone(s.timezone))
    errors.push({
      pointer: '/schedule/timezone',
      code: 'invalid_timezone',
      message: `"${s.timezone}" is not an IANA time zone such as Europe/Paris.`,
    });
  if (s.end_hour <= s.start_hour)
    errors.push({ pointer: '/schedule/end_hour', code: 'empty_window', message: 'end_hour must be after start_hour.' });
  return { ...s, days: [...new Set(s.days)].sort((a, b) => DAY_ORDER.indexOf(a) - DAY_ORDER.indexOf(b)) };
}

/** The subject template a step is sent with: its own, or "Re: " and the first step's for an in_thread step without one. */
export function subjectTemplate(steps: readonly SequenceStep[], step: SequenceStep): string {
  return step.subject ?? `Re: ${steps[0]?.subject ?? ''}`;
}

function steps(input: StepInput[], errors: FieldError[]): SequenceStep[] {
  return input.map((step, i) => {
    // Steps after the first answer in the first one's thread unless they say otherwise.
    const inThread = i > 0 && step.in_thread !== false;
    if (i === 0 && step.in_thread)
      errors.push({
        pointer: '/steps/0/in_thread',
        code: 'invalid_thread',
        message: 'The first step starts the thread; only later steps can be sent in it.',
      });
    if (step.subject === undefined && !inThread)
      errors.push({
        pointer: `/steps/${i}/subject`,
        code: 'required',
        message:
          i === 0
            ? 'The first step needs a subject.'
            : 'A step not sent in the thread needs its own subject (or leave in_thread on to answer as "Re: <first subject>").',
      });
    for (const [field, text] of [
      ['subject', step.subject ?? ''],
      ['body', step.body],
    ] as const) {
      for (const problem of parseVariables(text).problems)
        errors.push({ pointer: `/steps/${i}/${field}`, code: 'invalid_template', message: problem.message });
    }
    return {
      position: i + 1,
      wait_days: step.wait_days ?? 0,
      subject: step.subject ?? null,
      body: step.body,
      in_thread: inThread,
    };
  });
}

/** The mailboxes after the input: sender_connector_ids, or the one sender_connector_id; both must agree. */
function senders(input: SequenceInput, base: SequenceFields | undefined, errors: FieldError[]): string[] {
  const one = input.sender_connector_id;
  const many = input.sender_connector_ids;
  if (many === undefined) return one === undefined ? (base?.sender_connector_ids ?? []) : one ? [one] : [];
  if (one !== undefined && (one ?? undefined) !== many[0])
    errors.push({
      pointer: '/sender_connector_id',
      code: 'inconsistent',
      message: 'sender_connector_id must be the first of sender_connector_ids; give only sender_connector_ids.',
    });
  if (new Set(many).size !== many.length)
    errors.push({ pointer: '/sender_connector_ids', code: 'duplicate', message: 'Each mailbox may be listed once.' });
  return many;
}

/** 404 for a mailbox not in the workspace, 400 for a connector that is not a mailbox; only newly listed ones are checked. */
async function checkSenders(
  q: Queryable,
  workspaceId: string,
  input: SequenceInput,
  ids: string[],
  base?: SequenceFields,
): Promise<void> {
  const added = ids.filter((id) => !base?.sender_connector_ids.includes(id));
  const found = new Map((await findConnectors(q, workspaceId, added)).map((c) => [c.id, c]));
  const pointer = (id: string) =>
    input.sender_connector_ids ? `/sender_connector_ids/${ids.indexOf(id)}` : '/sender_connector_id';
  const missing = added.filter((id) => !found.has(id));
  if (missing.length)
    throw new ApiError('not_found', `No connector ${missing.join(', ')} in this workspace.`, {
      errors: missing.map((id) => ({
        pointer: pointer(id),
        code: 'not_found',
        message: 'Use a connector from list_connectors.',
      })),
    });
  const notMailbox = [...found.values()].filter((c) => !isMailbox(c)).map((c) => c.id);
  if (notMailbox.length)
    throw new ApiError('validation_failed', 'Sequences send only from Gmail connectors.', {
      errors: notMailbox.map((id) => ({ pointer: pointer(id), code: 'not_a_mailbox', message: `${id} is not Gmail.` })),
    });
}

/**
 * The fields after applying `input` over `base` (a new sequence: the defaults); 400 naming every bad field.
 * An edit calls it inside its transaction, so the senders are looked up with `q`, that transaction.
 */
export async function sequenceFields(
  q: Queryable,
  workspaceId: string,
  input: SequenceInput,
  base?: SequenceFields,
): Promise<SequenceFields> {
  const errors: FieldError[] = [];
  const mailboxes = senders(input, base, errors);
  const fields: SequenceFields = {
    name: (input.name ?? base?.name ?? '').trim(),
    sender_connector_id: mailboxes[0] ?? null,
    sender_connector_ids: mailboxes,
    schedule: schedule(input.schedule, base?.schedule ?? DEFAULT_SCHEDULE, errors),
    daily_limit: input.daily_limit ?? base?.daily_limit ?? 50,
    steps: input.steps ? steps(input.steps, errors) : (base?.steps ?? []),
    stop_on_reply: input.stop_on_reply ?? base?.stop_on_reply ?? true,
    stop_on_auto_reply: input.stop_on_auto_reply ?? base?.stop_on_auto_reply ?? false,
    auto_reply_pause_days: input.auto_reply_pause_days ?? base?.auto_reply_pause_days ?? 3,
    stop_for_company: input.stop_for_company ?? base?.stop_for_company ?? false,
  };
  if (!fields.name) errors.push({ pointer: '/name', code: 'required', message: 'A name is required.' });
  if (errors.length) throw new ApiError('validation_failed', 'The sequence has invalid fields.', { errors });
  await checkSenders(q, workspaceId, input, mailboxes, base);
  return fields;
}
