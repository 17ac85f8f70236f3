import type { CreateApiKeyInput, CreateApiKeyOutput } from '../../generated/handlers.ts';
import { createApiKey as create } from './create-api-key-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { apiKeyBody } from './wire.ts';

export async function createApiKey(input: CreateApiKeyInput, ctx: HandlerContext): Promise<CreateApiKeyOutput> {
  const { row, key } = await create(ctx.deps, actorFrom(ctx), { name: input.body.name });
  return { status: 201, body: { ...apiKeyBody(row), key } };
}
