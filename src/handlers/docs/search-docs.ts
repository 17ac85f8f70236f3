// search_docs: the service's own documentation (README, docs/, and every operation of the contract),
// indexed once per process on first use, ranked in memory. Any authenticated caller may ask.
import { fileURLToPath } from 'node:url';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { SearchDocsInput, SearchDocsOutput } from '../../generated/handlers.ts';
import { toolDescriptors } from '../../generated/mcp-tools.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';
import { loadDocsCorpus } from './corpus.ts';
import { createDocsIndex } from './docs-index.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
type DocsIndex = ReturnType<typeof createDocsIndex>;
const indexes = new WeakMap<Deps, DocsIndex>();

function indexFor(deps: Deps): DocsIndex {
  let index = indexes.get(deps);
  if (!index) {
    const tools = new Set(toolDescriptors.map((t) => t.name));
    index = createDocsIndex(loadDocsCorpus(repoRoot, deps.contract.openapiDocument(), tools));
    indexes.set(deps, index);
  }
  return index;
}

export function searchDocs(deps: Deps, request: { question: string; limit: number }) {
  const question = request.question.trim();
  if (!question)
    throw new ApiError('validation_failed', 'Ask a question in a few words.', {
      errors: [{ field: 'query.question', code: 'empty', message: 'a question' }],
    });
  return indexFor(deps).search(question, request.limit);
}

export async function handle(input: SearchDocsInput, ctx: HandlerContext): Promise<SearchDocsOutput> {
  requirePrincipal(ctx);
  const hits = searchDocs(ctx.deps, { question: input.query.question, limit: input.query.limit });
  return {
    status: 200,
    body: {
      data: hits.map((h) => ({
        title: h.title,
        heading: h.heading,
        text: h.text,
        source: h.source,
        tools: [...h.tools],
        score: h.score,
      })),
    },
  };
}
