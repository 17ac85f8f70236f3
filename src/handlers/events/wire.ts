// An event as the contract shows it.
import type { EventRow } from './events-data.ts';

export const eventBody = (e: EventRow) => ({
  id: e.id,
  type: e.type,
  created_at: e.created_at.toISOString(),
  actor: e.actor,
  data: e.data,
});
