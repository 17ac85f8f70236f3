// list_docs: the guides as pages with their section anchors, what get_doc reads and the MCP server lists as
// docs:// resources. Any authenticated caller may ask.
import { fileURLToPath } from 'node:url';
import type { ListDocsInput, ListDocsOutput } from '../../generated/handlers.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';
import { loadDocsPages, topSections } from './docs-pages.ts';

export const docsRoot = fileURLToPath(new URL('../../..', import.meta.url));

export function listDocs() {
  return loadDocsPages(docsRoot).map((page) => ({
    path: page.path,
    title: page.title,
    sections: topSections(page).map((s) => ({ anchor: s.anchor, heading: s.heading })),
  }));
}

export async function handle(_input: ListDocsInput, ctx: HandlerContext): Promise<ListDocsOutput> {
  requirePrincipal(ctx);
  return { status: 200, body: { data: listDocs() } };
}
