// The corpus behind search_docs: the service's own documentation cut into passages. README.md and the
// guides in docs/ are split by heading (long sections further at paragraphs), and every operation of the
// contract becomes one passage naming its tool (markdown-passages.ts, contract-passages.ts). Pure but for
// loadDocsCorpus, which reads the files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractPassages } from './contract-passages.ts';
import type { DocsPassage } from './docs-passage.ts';
import { markdownPassages } from './markdown-passages.ts';

export interface DocsCorpusInput {
  readme: string;
  guides: Array<{ path: string; text: string }>;
  openapi: Record<string, unknown>;
  toolNames: Set<string>;
}

export function buildDocsCorpus(input: DocsCorpusInput): DocsPassage[] {
  return [
    ...markdownPassages('README.md', input.readme, input.toolNames),
    ...input.guides.map((guide) => markdownPassages(guide.path, guide.text, input.toolNames)).flat(),
    ...contractPassages(input.openapi, input.toolNames),
  ];
}

/** Reads README.md and docs/*.md under `repoRoot` (synchronously: it runs once, when the index is built). */
export function loadDocsCorpus(
  repoRoot: string,
  openapi: Record<string, unknown>,
  toolNames: Set<string>,
): DocsPassage[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const files = readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort();
  const guides = files.map((f) => ({ path: `docs/${f}`, text: readFileSync(join(repoRoot, 'docs', f), 'utf8') }));
  return buildDocsCorpus({ readme, guides, openapi, toolNames });
}
