// Import rules of the house that a reader of one file cannot see: nothing but the composition root imports the
// admin panel or the sandbox providers, and no file renames what it imports (one name per thing).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const sources = execFileSync('git', ['ls-files', 'src'], { cwd: repoRoot, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|js|mjs)$/.test(f));
const text = new Map(sources.map((f) => [f, readFileSync(join(repoRoot, f), 'utf8')]));

/** The repository paths a file imports or re-exports from (relative specifiers only). */
function importedPaths(file: string): string[] {
  const specifiers = [
    ...(text.get(file) as string).matchAll(/\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g),
  ].map((m) => m[1]);
  return specifiers.map((s) => normalize(join(dirname(file), s)));
}

/** `import { a as b }` and `export { a as b } from`: the renamed specifiers of a file, as written. */
function aliases(source: string): string[] {
  const clauses = [
    ...source.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*['"]/g),
  ].map((m) => m[1]);
  return clauses.flatMap((clause) =>
    clause
      .split(',')
      .map((s) => s.trim())
      .filter((s) => /^(?:type\s+)?[\w$]+\s+as\s+[\w$]+$/.test(s)),
  );
}

describe('imports of src/admin/ and src/sandbox/', () => {
  it('come only from src/app.ts and from inside those folders', () => {
    const outside = sources.filter(
      (f) => f !== 'src/app.ts' && !f.startsWith('src/admin/') && !f.startsWith('src/sandbox/'),
    );
    const offenders = outside.flatMap((f) =>
      importedPaths(f)
        .filter((p) => /^src\/(admin|sandbox)\//.test(p))
        .map((p) => `${f} -> ${p}`),
    );
    expect(offenders).toEqual([]);
  });
});

describe('the alias finder', () => {
  it.each([
    ['a renamed import', { given: "import { a as b } from './x.ts';", want: ['a as b'] }],
    ['a renamed type among others', { given: "import { c, type A as B } from './x.ts';", want: ['type A as B'] }],
    ['a renamed re-export', { given: "export { a as b } from './x.ts';", want: ['a as b'] }],
    ['a default import beside a renamed one', { given: "import d, { a as b } from 'y';", want: ['a as b'] }],
    ['a multi-line clause', { given: "import {\n  a,\n  b as c,\n} from './x.ts';", want: ['b as c'] }],
    ['a namespace import, which is the convention', { given: "import * as bulkImportLeads from './x.ts';", want: [] }],
    ['plain named imports', { given: "import { a, type B } from './x.ts';", want: [] }],
  ])('finds %s', (_name, { given, want }) => {
    expect(aliases(given)).toEqual(want);
  });
});

describe('files under src/', () => {
  it('import nothing under another name', () => {
    const found = sources.flatMap((f) => aliases(text.get(f) as string).map((alias) => `${f}: ${alias}`));
    expect(found).toEqual([]);
  });
});
