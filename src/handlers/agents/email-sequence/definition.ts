// The store's email-sequence-generator: from the workspace's knowledge, a draft sequence a person approves.
import type { AgentDefinition } from '../agent-definition.ts';
import { findWorkspaceSettings } from '../../sequences/sequences-data.ts';
import { ApiError } from '../../../errors.ts';
import { retrieveStep, writeStep } from './draft-steps.ts';
import { emailSequenceInput, type EmailSequenceInput } from './input.ts';
import { senderStep } from './sender-step.ts';
import { approvalStep, createStep, submitStep } from './sequence-steps.ts';

export const emailSequenceGenerator: AgentDefinition<EmailSequenceInput> = {
  slug: 'email-sequence-generator',
  name: 'Email sequence generator',
  description:
    "Writes a cold email sequence from the workspace's ingested knowledge (each email cites the pages it drew on), creates it as a draft with the connected Gmail sender, and submits it for a person's approval. Produces an approved email_sequence to launch with launch_email_sequence.",
  category: 'email',
  version: '1.0.0',
  input: emailSequenceInput,
  produces: ['email_sequence'],
  requiredConnectors: ['gmail'],
  async precheck(deps, actor) {
    const settings = await findWorkspaceSettings(deps.db.sql, actor.workspaceId);
    if (!settings.postal_address) {
      throw new ApiError(
        'sequence_blocked',
        "Every email's footer carries the workspace's postal address, and none is set: ask your human for it, set it with update_workspace_settings, then run the agent.",
      );
    }
  },
  steps: [senderStep, retrieveStep, writeStep, createStep, submitStep, approvalStep],
};
