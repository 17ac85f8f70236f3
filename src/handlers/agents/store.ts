// The agent store: the agents this repository defines, listed and found by id or slug. An agent's id is
// derived from its slug, so it is the same on every deployment and across versions.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { adCopyWriter } from './ad-copy/definition.ts';
import { blogPostWriter } from './blog-post/definition.ts';
import { emailSequenceGenerator } from './email-sequence/definition.ts';

export interface StoreAgent {
  id: string;
  definition: AgentDefinition;
  inputSchema: Record<string, unknown>;
}

export const agentId = (slug: string): string =>
  `agt_${createHash('sha256').update(`agent:${slug}`).digest('hex').slice(0, 26)}`;

function storeEntry(definition: AgentDefinition): StoreAgent {
  const { $schema: _draft, ...inputSchema } = z.toJSONSchema(definition.input, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return { id: agentId(definition.slug), definition, inputSchema };
}

const definitions: AgentDefinition[] = [emailSequenceGenerator, blogPostWriter, adCopyWriter];
const store: StoreAgent[] = definitions.map(storeEntry);

export function listStoreAgents(): StoreAgent[] {
  return store;
}

/** By id (`agt_…`) or slug; 404 naming the store's slugs otherwise. */
export function findStoreAgent(idOrSlug: string): StoreAgent {
  const found = store.find((a) => a.id === idOrSlug || a.definition.slug === idOrSlug);
  if (!found)
    throw new ApiError(
      'not_found',
      `No agent "${idOrSlug}" in the store; list_agents_in_store lists them (${store.map((a) => a.definition.slug).join(', ')}).`,
    );
  return found;
}
