// get_doc: one page of list_docs as Markdown, whole or one section; the MCP server's docs:// resources read it.
import { ApiError } from '../../errors.ts';
import type { GetDocInput, GetDocOutput } from '../../generated/handlers.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';
import { loadDocsPages, sectionText } from './docs-pages.ts';
import { docsRoot } from './list-docs.ts';

export function getDoc(request: { path: string; section?: string }) {
  // Only a listed page is read: the path never reaches the file system.
  const page = loadDocsPages(docsRoot).find((p) => p.path === request.path);
  if (!page) throw new ApiError('not_found', `No docs page ${request.path}; list_docs names them.`);
  const text = sectionText(page, request.section);
  if (text === undefined) throw new ApiError('not_found', `${request.path} has no section #${request.section}.`);
  const heading = page.sections.find((s) => s.anchor === request.section)?.heading ?? null;
  return { path: page.path, title: page.title, section: request.section ?? null, heading, text };
}

export async function handle(input: GetDocInput, ctx: HandlerContext): Promise<GetDocOutput> {
  requirePrincipal(ctx);
  return { status: 200, body: getDoc({ path: input.query.path, section: input.query.section }) };
}
