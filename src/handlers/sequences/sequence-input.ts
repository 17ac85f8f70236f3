// Checks and fills in a sequence's editable fields: steps numbered in order with known variables, a real
// time zone and a window that is not empty, and a sender that is one of the workspace's connectors.
import { findConnector } from '../connectors/connectors-data.ts';
import type { SequenceFields, SequenceSchedule, SequenceStep } from './sequences-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import { ApiError, type FieldError } from '../../errors.ts';
import { parseVariables } from './template.ts';

export interface StepInput {
  wait_days?: number;
  subject: string;
  body: string;
}

export interface SequenceInput {
  name?: string;
  sender_connector_id?: string | null;
  schedule?: Partial<SequenceSchedule>;
  daily_limit?: number;
  steps?: StepInput[];
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

function steps(input: StepInput[], errors: FieldError[]): SequenceStep[] {
  return input.map((step, i) => {
    for (const [field, text] of [
      ['subject', step.subject],
      ['body', step.body],
    ] as const) {
      for (const problem of parseVariables(text).problems)
        errors.push({ pointer: `/steps/${i}/${field}`, code: 'invalid_template', message: problem.message });
    }
    return { position: i + 1, wait_days: step.wait_days ?? 0, subject: step.subject, body: step.body };
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
