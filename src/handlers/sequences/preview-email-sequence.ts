// What a sequence would send, exactly as rendered for real leads (or made-up samples), every variant of an
// A/B-tested step included, with the checks that decide whether it may be approved and launched.
import type { PreviewEmailSequenceInput, PreviewEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { findLead, listLeadRows, type LeadRow } from '../leads/leads-data.ts';
import { sequenceChecks } from './sequence-checks.ts';
import { requireSequence } from './sequence-record.ts';
import { findWorkspaceSettings, type SequenceRow } from './sequences-data.ts';
import { renderStep, type RenderedMessage } from './template.ts';
import { messageTemplate, stepName, stepVersions } from './variants.ts';
import { unsubscribeUrl } from './unsubscribe-token.ts';
import { applyTracking } from './tracking-html.ts';

export interface PreviewLead {
  lead_id: string | null;
  email: string;
  sample: boolean;
  messages: PreviewMessage[];
}

type PreviewMessage = RenderedMessage & { position: number; variant: number | null };

/** A lead as templates read it: any column by name. */
type TemplateLead = Record<string, unknown> & { id: string | null; email: string };

const SAMPLE_LEAD: TemplateLead = {
  id: null,
  email: 'alex.sample@example.com',
  first_name: 'Alex',
  last_name: 'Sample',
  company: 'Example Co',
  title: 'Head of Marketing',
  custom_fields: {},
};

const templateLead = (row: LeadRow): TemplateLead => ({ ...row });

/**
 * The HTML as sent, tracking included; no message exists yet, so the pixel and links point to unsigned
 * `…/t/o/preview` and `…/t/c/preview-<n>` addresses (a 404), never to a token that could record anything.
 */
function withTracking(deps: Deps, s: SequenceRow, m: RenderedMessage, unsubscribe: string): RenderedMessage {
  const base = `${deps.config.publicBaseUrl.replace(/\/$/, '')}/t`;
  const { html } = applyTracking(m.html, s.tracking, unsubscribe, (target) =>
    target.kind === 'open' ? `${base}/o/preview` : `${base}/c/preview-${target.link}`,
  );
  return { ...m, html };
}

/**
 * Every version of every step: each variant of a step with variants. A version answering the thread shows
 * "Re: " and step 1's first variant (an enrolled lead answers the step-1 variant it got).
 */
function renderFor(deps: Deps, s: SequenceRow, lead: TemplateLead, postal: string | null): PreviewMessage[] {
  const url = lead.id
    ? unsubscribeUrl(deps, { workspaceId: s.workspace_id, leadId: lead.id, sequenceId: s.id })
    : `${deps.config.publicBaseUrl.replace(/\/$/, '')}/unsubscribe/example`;
  return s.steps.flatMap((step) =>
    stepVersions(step).map(({ variant }) => {
      const rendered = renderStep(messageTemplate(s.steps, step, variant, null), lead, {
        postalAddress: postal ?? '[postal address missing: set it in the workspace settings]',
        unsubscribeUrl: url,
      });
      return { position: step.position, variant, ...withTracking(deps, s, rendered, url) };
    }),
  );
}

async function previewLeads(deps: Deps, workspaceId: string, leadIds: string[] | undefined): Promise<TemplateLead[]> {
  if (leadIds?.length) {
    const found = await Promise.all(leadIds.map((id) => findLead(deps.db.sql, workspaceId, id)));
    const missing = leadIds.filter((_id, i) => !found[i]);
    if (missing.length) throw new ApiError('not_found', `No lead ${missing.join(', ')} in this workspace.`);
    return found.filter((row) => row !== undefined).map(templateLead);
  }
  const recent = await listLeadRows(deps.db.sql, workspaceId, { statuses: ['active'], limit: 3 });
  return recent.length ? recent.map(templateLead) : [SAMPLE_LEAD];
}

export async function previewEmailSequence(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; leadIds?: string[] },
) {
  const s = await requireSequence(deps, deps.db.sql, actor.workspaceId, request.sequenceId);
  const checks = await sequenceChecks(deps, deps.db.sql, actor.workspaceId, s);
  const settings = await findWorkspaceSettings(deps.db.sql, actor.workspaceId);
  const leads: PreviewLead[] = [];
  for (const lead of await previewLeads(deps, actor.workspaceId, request.leadIds)) {
    const messages = renderFor(deps, s, lead, settings.postal_address);
    for (const m of messages) {
      if (m.unresolved.length) {
        checks.push({
          code: 'unresolved_variables',
          severity: 'warning',
          step: m.position,
          lead_id: lead.id,
          message: `${stepName(m.position, m.variant)} cannot be sent to ${lead.email}: no value for ${m.unresolved.map((v) => `{{${v}}}`).join(', ')} and no fallback. Such leads are skipped, never sent a blank; add a fallback like {{first_name | "there"}}.`,
        });
      }
    }
    leads.push({ lead_id: lead.id, email: lead.email, sample: lead.id === null, messages });
  }
  return { sequence_id: s.id, revision: s.revision, tracking: { ...s.tracking }, checks, leads };
}

export async function handle(
  input: PreviewEmailSequenceInput,
  ctx: HandlerContext,
): Promise<PreviewEmailSequenceOutput> {
  return {
    status: 200,
    body: await previewEmailSequence(ctx.deps, actorFrom(ctx), {
      sequenceId: input.path.sequence_id,
      leadIds: input.body?.lead_ids,
    }),
  };
}
