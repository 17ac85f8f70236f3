// Checks and fills in a sequence's editable fields: steps numbered in order with known variables (a body, or
// 2-5 variants for an A/B test), a real time zone and a window that is not empty, and senders that are Gmail
// connectors of the workspace.
import { findConnectors } from '../connectors/connectors-data.ts';
import { isMailbox } from '../connectors/mailbox-sending.ts';
import type {
  AutoSelectWinner,
  SequenceFields,
  SequenceSchedule,
  SequenceStep,
  SequenceTracking,
  SequenceVariant,
} from './sequences-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import { ApiError, type FieldError } from '../../errors.ts';
import { parseVariables } from './template.ts';
import { variantLabel } from './variants.ts';

export interface StepInput {
  wait_days?: number;
  subject?: string;
  /** Either a body or variants. */
  body?: string;
  variants?: Array<{ subject?: string; body: string; weight?: number }>;
  in_thread?: boolean;
}

export interface AutoSelectWinnerInput {
  metric: AutoSelectWinner['metric'];
  min_sends_per_variant?: number;
  confidence?: number;
}

const MAX_VARIANTS = 5;

export interface SequenceInput {
  name?: string;
  sender_connector_id?: string | null;
  sender_connector_ids?: string[];
  schedule?: Partial<SequenceSchedule>;
  daily_limit?: number;
  steps?: StepInput[];
  auto_select_winner?: AutoSelectWinnerInput | null;
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

function templateProblems(pointer: string, text: string, errors: FieldError[]): void {
  for (const problem of parseVariables(text).problems)
    errors.push({ pointer, code: 'invalid_template', message: problem.message });
}

/** A step's 2-5 variants, each with its subject: its own, the step's, or none in a thread ("Re: …"). */
function variants(input: StepInput, i: number, inThread: boolean, errors: FieldError[]): SequenceVariant[] {
  const list = input.variants ?? [];
  if (list.length < 2 || list.length > MAX_VARIANTS)
    errors.push({
      pointer: `/steps/${i}/variants`,
      code: 'invalid_variants',
      message: `An A/B test needs 2 to ${MAX_VARIANTS} variants; this step has ${list.length}.`,
    });
  return list.slice(0, MAX_VARIANTS).map((v, j) => {
    const at = `/steps/${i}/variants/${j}`;
    const subject = v.subject ?? input.subject ?? null;
    if (subject === null && !inThread)
      errors.push({
        pointer: `${at}/subject`,
        code: 'required',
        message: "A variant of a step not sent in the thread needs a subject (its own or the step's).",
      });
    templateProblems(`${at}/subject`, v.subject ?? '', errors);
    templateProblems(`${at}/body`, v.body, errors);
    return { variant: j + 1, label: variantLabel(j + 1), subject, body: v.body, weight: v.weight ?? 1 };
  });
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
    if (step.body !== undefined && step.variants !== undefined)
      errors.push({
        pointer: `/steps/${i}/variants`,
        code: 'conflict',
        message: 'A step has either a body or variants (each with its own body), not both.',
      });
    else if (step.body === undefined && step.variants === undefined)
      errors.push({
        pointer: `/steps/${i}/body`,
        code: 'required',
        message: 'A step needs a body, or 2-5 variants for an A/B test.',
      });
    templateProblems(`/steps/${i}/subject`, step.subject ?? '', errors);
    const base = { position: i + 1, wait_days: step.wait_days ?? 0, in_thread: inThread };
    if (step.variants !== undefined) {
      const list = variants(step, i, inThread, errors);
      // The step's own subject and body mirror variant A, so a reader that knows nothing of variants sees one.
      return { ...base, subject: list[0]?.subject ?? null, body: list[0]?.body ?? '', variants: list };
    }
    if (step.subject === undefined && !inThread)
      errors.push({
        pointer: `/steps/${i}/subject`,
        code: 'required',
        message:
          i === 0
            ? 'The first step needs a subject.'
            : 'A step not sent in the thread needs its own subject (or leave in_thread on to answer as "Re: <first subject>").',
      });
    templateProblems(`/steps/${i}/body`, step.body ?? '', errors);
    return { ...base, subject: step.subject ?? null, body: step.body ?? '' };
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

/** The test's settings with their defaults (the contract bounds them), or null for none. */
const autoSelectWinner = (input: AutoSelectWinnerInput | null): AutoSelectWinner | null =>
  input && {
    metric: input.metric,
    min_sends_per_variant: input.min_sends_per_variant ?? 100,
    confidence: input.confidence ?? 0.95,
  };

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
    tracking: input.tracking
      ? { opens: input.tracking.opens === true, clicks: input.tracking.clicks === true }
      : (base?.tracking ?? { opens: false, clicks: false }),
    auto_select_winner:
      input.auto_select_winner === undefined
        ? (base?.auto_select_winner ?? null)
        : autoSelectWinner(input.auto_select_winner),
  };
  if (!fields.name) errors.push({ pointer: '/name', code: 'required', message: 'A name is required.' });
  if (errors.length) throw new ApiError('validation_failed', 'The sequence has invalid fields.', { errors });
  await checkSenders(q, workspaceId, input, mailboxes, base);
  return fields;
}
