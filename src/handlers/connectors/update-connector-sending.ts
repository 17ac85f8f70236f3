// update_connector_sending: a mailbox's own limits across all sequences (daily cap, warm-up ramp, the bounce
// rate that pauses it) and its pause. `paused: true` pauses it by hand (reason `manual`), `paused: false`
// resumes it whatever paused it; each change of the pause is an event. The sender reads these on every claim
// (sequences/sender.ts), so a change applies from the next message on.
import type { UpdateConnectorSendingInput, UpdateConnectorSendingOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { findMailboxSync } from '../replies/mailbox-syncs-data.ts';
import { requireConnectorManager } from './connector-permission.ts';
import {
  findConnector,
  setConnectorSending,
  type ConnectorRow,
  type ConnectorSendingFields,
} from './connectors-data.ts';
import { isMailbox, mailboxSendingOf } from './mailbox-sending.ts';
import { connectorBody } from './wire.ts';

export type UpdateConnectorSendingRequest = UpdateConnectorSendingInput['body'];

/** The fields after the request; 400 for a ramp that starts above its own maximum. */
function sendingFields(c: ConnectorRow, request: UpdateConnectorSendingRequest, now: Date): ConnectorSendingFields {
  const w = request.warmup;
  if (w && w.start_per_day > w.max_per_day)
    throw new ApiError('validation_failed', 'The warm-up starts above its own maximum.', {
      errors: [
        {
          pointer: '/warmup/start_per_day',
          code: 'above_max',
          message: `start_per_day ${w.start_per_day} is above max_per_day ${w.max_per_day}.`,
        },
      ],
    });
  const paused = request.paused ?? c.sending_paused_reason !== null;
  const keepPause = paused === (c.sending_paused_reason !== null);
  return {
    daily_cap: request.daily_cap === undefined ? c.daily_cap : request.daily_cap,
    // A new ramp starts today; the same call again restarts it.
    warmup: w === undefined ? c.warmup : w && { ...w, started_at: now.toISOString() },
    bounce_rate_threshold: request.bounce_rate_threshold ?? c.bounce_rate_threshold,
    sending_paused_reason: keepPause ? c.sending_paused_reason : paused ? 'manual' : null,
    sending_paused_at: keepPause ? c.sending_paused_at : paused ? now : null,
  };
}

export async function updateConnectorSending(
  deps: Deps,
  actor: Actor,
  request: { connectorId: string; body: UpdateConnectorSendingRequest },
): Promise<ConnectorRow> {
  const row = await deps.db.sql.begin(async (tx) => {
    const c = await findConnector(tx, actor.workspaceId, request.connectorId, { forUpdate: true });
    if (!c) throw new ApiError('not_found', `No connector ${request.connectorId} in this workspace.`);
    requireConnectorManager(actor, c, "change a connector's sending");
    if (!isMailbox(c))
      throw new ApiError(
        'conflict',
        `Connector ${c.id} (${c.provider}) is not a mailbox: sequences send only from Gmail.`,
      );
    const now = deps.clock.now();
    const fields = sendingFields(c, request.body, now);
    const updated = (await setConnectorSending(tx, actor.workspaceId, c.id, fields, now)) as ConnectorRow;
    const was = c.sending_paused_reason;
    if (was === null && fields.sending_paused_reason !== null)
      await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'connector.sending_paused', {
        id: c.id,
        account_email: c.account_email,
        reason: 'manual',
      });
    if (was !== null && fields.sending_paused_reason === null)
      await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'connector.sending_resumed', {
        id: c.id,
        account_email: c.account_email,
        paused_for: was,
      });
    return updated;
  });
  deps.resourceWatch.changed(row.id);
  return row;
}

export async function handle(
  input: UpdateConnectorSendingInput,
  ctx: HandlerContext,
): Promise<UpdateConnectorSendingOutput> {
  const { deps } = ctx;
  const row = await updateConnectorSending(deps, actorFrom(ctx), {
    connectorId: input.path.connector_id,
    body: input.body,
  });
  const sync = await findMailboxSync(deps.db.sql, row.workspace_id, row.id);
  const sending = await mailboxSendingOf(
    deps.db.sql,
    row.workspace_id,
    [row],
    deps.config.sequences.mailboxDailyCap,
    deps.clock.now(),
  );
  return { status: 200, body: connectorBody(row, sync, sending.get(row.id)) };
}
