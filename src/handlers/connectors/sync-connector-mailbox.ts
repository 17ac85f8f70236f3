// PLACEHOLDER (issue 28 foundation): replaced by the helper that builds this operation.
import type { SyncConnectorMailboxInput, SyncConnectorMailboxOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(
  _input: SyncConnectorMailboxInput,
  _ctx: HandlerContext,
): Promise<SyncConnectorMailboxOutput> {
  throw new Error('sync-connector-mailbox is not built yet');
}
