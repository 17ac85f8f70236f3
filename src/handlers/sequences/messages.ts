// The messages sequences sent, are sending or gave up on.
import { listMessages, type MessageFilter, type MessageRow } from './sequence-messages-data.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';

export function listSentMessages(deps: Deps, actor: Actor, filter: MessageFilter): Promise<MessageRow[]> {
  return listMessages(deps.db.sql, actor.workspaceId, filter);
}
