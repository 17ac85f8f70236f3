// The end of the run: the checked draft becomes a draft sequence (with each step's sources), is submitted
// for approval, and the run waits for the person's decision. A rejection ends the run with the reviewer's
// note; an approval ends it with the sequence, ready to launch.
import { findSequence } from '../../sequences/sequences-data.ts';
import { ApiError } from '../../../errors.ts';
import { submitEmailSequenceForApproval } from '../../sequences/submit-email-sequence-for-approval.ts';
import { sequenceFields } from '../../sequences/sequence-input.ts';
import { insertSequenceRecorded } from '../../sequences/create-email-sequence.ts';
import { approvalUrl } from '../../sequences/wire.ts';
import type { AgentStep } from '../agent-definition.ts';
import type { DraftStep, WriterPassage } from '../model-writer.ts';
import type { EmailSequenceInput } from './input.ts';

const sequenceRef = (id: string) => ({ type: 'email_sequence', id });

export const createStep: AgentStep<EmailSequenceInput> = {
  name: 'create_sequence',
  async run(ctx) {
    const { deps, actor, input, state } = ctx;
    if (state.sequence_id) return { done: true, resources: [sequenceRef(state.sequence_id as string)] };
    const draft = state.draft as DraftStep[];
    const urls = new Map((state.passages as WriterPassage[]).map((p) => [p.chunk_id, p.url]));
    const fields = await sequenceFields(deps.db.sql, actor.workspaceId, {
      name: input.sequence_name ?? `${input.goal.slice(0, 150)} (${input.audience.slice(0, 40)})`,
      sender_connector_id: state.connector_id as string,
      ...(input.schedule && { schedule: input.schedule }),
      ...(input.daily_limit && { daily_limit: input.daily_limit }),
      steps: draft.map((s) => ({ subject: s.subject, body: s.body, wait_days: s.wait_days })),
    });
    fields.steps = fields.steps.map((step, i) => ({
      ...step,
      sources: draft[i].source_chunk_ids.map((id) => ({ chunk_id: id, url: urls.get(id) ?? '' })),
    }));
    const row = await deps.db.sql.begin(async (tx) => {
      const created = await insertSequenceRecorded(deps, tx, actor, fields);
      await ctx.save(tx, { sequence_id: created.id });
      return created;
    });
    return { done: true, state: { sequence_id: row.id }, resources: [sequenceRef(row.id)] };
  },
};

export const submitStep: AgentStep<EmailSequenceInput> = {
  name: 'submit_for_approval',
  async run({ deps, actor, state }) {
    const view = await submitEmailSequenceForApproval(deps, actor, state.sequence_id as string);
    return { done: true, state: { submitted_status: view.row.status } };
  },
};

export const approvalStep: AgentStep<EmailSequenceInput> = {
  name: 'await_approval',
  async run({ deps, actor, state }) {
    const id = state.sequence_id as string;
    const row = await findSequence(deps.db.sql, actor.workspaceId, id);
    if (!row) throw new ApiError('not_found', `Sequence ${id} was deleted before it was approved.`);
    if (
      row.approval?.decision === 'approved' &&
      row.approval.revision === row.revision &&
      row.status !== 'pending_approval'
    )
      return { done: true };
    if (row.status === 'pending_approval') {
      return {
        done: false,
        action: {
          type: 'sequence_approval',
          url: approvalUrl(deps.config.publicBaseUrl, id),
          message:
            'Ask your human to open this link, review the rendered emails and approve or reject them; the run goes on by itself once they decide. Agents cannot approve.',
          resource: sequenceRef(id),
        },
        timeoutSeconds: deps.config.agents.approvalTimeoutSeconds,
        timeoutCode: 'approval_timeout',
        timeoutMessage: `Nobody approved sequence ${id} in time; it stays pending approval, and its approval link still works.`,
      };
    }
    if (row.approval?.decision === 'rejected') {
      throw new ApiError(
        'sequence_rejected',
        `The reviewer rejected sequence ${id}${row.approval.note ? `: "${row.approval.note}"` : ''}. Edit it with update_email_sequence and submit it again, or run the agent again with another brief.`,
      );
    }
    throw new ApiError(
      'sequence_state_conflict',
      `Sequence ${id} is ${row.status} and was not approved (it was edited or archived outside the run).`,
    );
  },
};
