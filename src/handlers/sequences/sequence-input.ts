// Checks and fills in a sequence's editable fields: steps numbered in order with known variables, a real
// time zone and a window that is not empty, and a sender that is one of the workspace's connectors.
import { findConnector } from '../connectors/connectors-data.ts';
import type { SequenceFields, SequenceSchedule, SequenceStep, SequenceTracking } from './sequences-data.ts';
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
  schedule?: Partial<SequenceSchedule>;
  daily_limit?: number;
  steps?: StepInput[];
  stop_on_reply?: boolean;
  stop_on_auto_reply?: boolean;
  auto_reply_pause_days?: number;
  stop_for_company?: boolean;
  /** Replaces the whole object: a flag left out is off. */
  tracking?: Partial<SequenceTracking>;
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

/**
 * The fields after applying `input` over `base` (a new sequence: the defaults); 400 naming every bad field.
 * An edit calls it inside its transaction, so the sender is looked up with `q`, that transaction.
 */
export async function sequenceFields(
  q: Queryable,
  workspaceId: string,
  input: SequenceInput,
  base?: SequenceFields,
): Promise<SequenceFields> {
  const errors: FieldError[] = [];
  const fields: SequenceFields = {
    name: (input.name ?? base?.name ?? '').trim(),
    sender_connector_id:
      input.sender_connector_id === undefined ? (base?.sender_connector_id ?? null) : input.sender_connector_id,
    schedule: schedule(input.schedule, base?.schedule ?? DEFAULT_SCHEDULE, errors),
    daily_limit: input.daily_limit ?? base?.daily_limit ?? 50,
    steps: input.steps ? steps(input.steps, errors) : (base?.steps ?? []),
    stop_on_reply: input.stop_on_reply ?? base?.stop_on_reply ?? true,
    stop_on_auto_reply: input.stop_on_auto_reply ?? base?.stop_on_auto_reply ?? false,
    auto_reply_pause_days: input.auto_reply_pause_days ?? base?.auto_reply_pause_days ?? 3,
    stop_for_company: input.stop_for_company ?? base?.stop_for_company ?? false,
    tracking: input.tracking
      ? { opens: input.tracking.opens === true, clicks: input.tracking.clicks === true }
      : (base?.tracking ?? { opens: false, clicks: false }),
  };
  if (!fields.name) errors.push({ pointer: '/name', code: 'required', message: 'A name is required.' });
  if (errors.length) throw new ApiError('validation_failed', 'The sequence has invalid fields.', { errors });
  if (fields.sender_connector_id && fields.sender_connector_id !== base?.sender_connector_id) {
    const connector = await findConnector(q, workspaceId, fields.sender_connector_id);
    if (!connector)
      throw new ApiError('not_found', `No connector ${fields.sender_connector_id} in this workspace.`, {
        errors: [
          { pointer: '/sender_connector_id', code: 'not_found', message: 'Use a connector from list_connectors.' },
        ],
      });
  }
  return fields;
}
