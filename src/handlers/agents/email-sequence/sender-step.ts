// The run's first step: a Gmail connector to send from that can read replies (the sequence stops for a
// lead who answers). The one the input names, else the workspace's newest connected one, else a new one
// whose consent link the run hands to a person, waiting until they allow access. A connected sender
// without read_replies gets the same wait with a link that adds it. Each time the run looks again (an
// event, the sweep) it renews a link that has expired.
import { findConnector, listConnectorRows, type ConnectorRow } from '../../connectors/connectors-data.ts';
import { connectorCapabilities } from '../../connectors/google/google-endpoints.ts';
import { ApiError } from '../../../errors.ts';
import { startConnectorOauth } from '../../connectors/start-connector-oauth.ts';
import type { AgentStep, StepContext, StepDone, StepWait } from '../agent-definition.ts';
import type { EmailSequenceInput } from './input.ts';

const CAPABILITIES = ['read_replies'];

async function newestConnected(ctx: StepContext<EmailSequenceInput>): Promise<ConnectorRow | undefined> {
  const rows = await listConnectorRows(ctx.deps.db.sql, ctx.actor.workspaceId, { limit: 100, provider: 'gmail' });
  return rows.find((c) => c.status === 'connected');
}

async function connectorToUse(ctx: StepContext<EmailSequenceInput>): Promise<ConnectorRow> {
  const { deps, actor } = ctx;
  const id = ctx.input.sender_connector_id ?? (ctx.state.connector_id as string | undefined);
  if (id) {
    const row = await findConnector(deps.db.sql, actor.workspaceId, id);
    if (!row) throw new ApiError('not_found', `No connector ${id} in this workspace.`);
    if (row.provider !== 'gmail')
      throw new ApiError(
        'conflict',
        `Connector ${id} is a ${row.provider} connector; the sequence needs a Gmail sender.`,
      );
    return row;
  }
  const connected = await newestConnected(ctx);
  if (connected) return connected;
  const started = await startConnectorOauth(deps, actor, { provider: 'gmail', capabilities: CAPABILITIES });
  await deps.db.sql.begin((tx) => ctx.save(tx, { connector_id: started.id }));
  return started;
}

/**
 * A fresh consent link that adds read_replies to a connected sender, or undefined where this service cannot
 * ask for more on a connected connector: the run then goes on, and the sequence's blocking check
 * `replies_not_seen` tells the caller how to grant it or to turn stop_on_reply off.
 */
async function upgradeLink(
  ctx: StepContext<EmailSequenceInput>,
  connector: ConnectorRow,
): Promise<ConnectorRow | undefined> {
  try {
    return await startConnectorOauth(ctx.deps, ctx.actor, {
      provider: 'gmail',
      reconnectConnectorId: connector.id,
      capabilities: CAPABILITIES,
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'conflict') return undefined;
    throw error;
  }
}

const done = (c: ConnectorRow): StepDone => ({
  done: true,
  state: { connector_id: c.id, sender_email: c.account_email },
});

export const senderStep: AgentStep<EmailSequenceInput> = {
  name: 'connect_sender',
  async run(ctx): Promise<StepDone | StepWait> {
    const { deps, actor } = ctx;
    let connector = await connectorToUse(ctx);
    const connected = connector.status === 'connected';
    if (connected && connectorCapabilities(connector).includes('read_replies')) return done(connector);
    const linkLive =
      (connected || connector.status === 'pending_consent') &&
      connector.authorization_url &&
      connector.authorization_expires_at &&
      connector.authorization_expires_at > deps.clock.now();
    if (!linkLive) {
      const fresh = connected
        ? await upgradeLink(ctx, connector)
        : await startConnectorOauth(deps, actor, {
            provider: 'gmail',
            reconnectConnectorId: connector.id,
            capabilities: CAPABILITIES,
          });
      if (!fresh) return done(connector);
      connector = fresh;
    }
    const sandbox = connector.mode === 'sandbox' ? ' (sandbox mode: no real mail is sent)' : '';
    const what = connected
      ? `let the service read replies in the Gmail account ${connector.account_email ?? ''} (headers only, so the sequence stops for a lead who answers)`
      : 'allow access to the Gmail account the sequence will send from, including reading replies so the sequence stops for a lead who answers';
    return {
      done: false,
      action: {
        type: 'connector_authorization',
        url: connector.authorization_url ?? '',
        message: `Ask your human to open this link and ${what}${sandbox}. The link is renewed when it expires; the run goes on by itself once they have allowed it.`,
        resource: { type: 'connector', id: connector.id },
      },
      timeoutSeconds: deps.config.agents.authorizationTimeoutSeconds,
      timeoutCode: 'authorization_timeout',
      timeoutMessage: `Nobody allowed access to connector ${connector.id} in time; run the agent again when your human is ready.`,
    };
  },
};
