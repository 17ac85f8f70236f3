import type { SearchDocsInput, SearchDocsOutput } from '../../generated/handlers.ts';
import { searchDocs as search } from './search-docs-logic.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';

export async function searchDocs(input: SearchDocsInput, ctx: HandlerContext): Promise<SearchDocsOutput> {
  requirePrincipal(ctx);
  const hits = search(ctx.deps, { question: input.query.question, limit: input.query.limit ?? 5 });
  return {
    status: 200,
    body: { data: hits.map((h) => ({ title: h.title, heading: h.heading, text: h.text, source: h.source, tools: [...h.tools], score: h.score })) },
  };
}
